// A command run from an end-to-end test without blocking the test's event loop: spawnSync would
// stop Node's fetch from noticing that workerd closed an idle kept-alive connection meanwhile, and
// the next request would go out on a dead socket.
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/** Runs `cmd` with `args`; answers its exit status and output, as spawnSync would. */
export async function run(cmd, args, options = {}) {
  try {
    const { stdout, stderr } = await execFileAsync(cmd, args, {
      encoding: "utf8",
      maxBuffer: 64 << 20,
      ...options,
    });
    return { status: 0, stdout, stderr };
  } catch (err) {
    if (err.stdout === undefined) throw err;
    return {
      status: typeof err.code === "number" ? err.code : null,
      signal: err.signal ?? null,
      stdout: err.stdout,
      stderr: err.stderr,
    };
  }
}
