// Node's fetch keeps connections alive and may reuse one that workerd has just closed as idle
// (after a pause, e.g. while an ops command runs): "other side closed" before any answer. Such a
// request never got an answer, so the end-to-end tests send it once more on a new connection.
const original = globalThis.fetch;

globalThis.fetch = async function fetchOnLiveConnection(input, init) {
  try {
    return await original(input, init);
  } catch (err) {
    if (!["UND_ERR_SOCKET", "ECONNRESET", "EPIPE"].includes(err?.cause?.code)) throw err;
    return original(input, init);
  }
};
