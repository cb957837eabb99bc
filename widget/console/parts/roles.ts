/**
 * What the console shows each role: the Worker's table (worker/staff/roles.ts) decides and answers
 * 403 role_required; the screens hide what a role may not do, so nobody meets that answer by
 * following the console's own buttons.
 */
import type { ConsoleRole as Role } from "../../../shared/console.js";

const RANK: Record<Role, number> = { host: 1, manager: 2, owner: 3 };

/** Whether `role` is `least` or above. */
export const atLeast = (role: Role | undefined, least: Role) => !!role && RANK[role] >= RANK[least];
