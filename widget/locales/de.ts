export const templates = {};
