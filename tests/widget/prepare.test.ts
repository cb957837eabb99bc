import { expect } from "@open-wc/testing";
import { prepareBookPage, warmDateFormats } from "../../widget/prepare.js";

/** Runs `work` with `stub` as the page's Worker, the real one put back after. */
async function withWorker<T>(stub: unknown, work: () => Promise<T>): Promise<T> {
  const real = window.Worker;
  window.Worker = stub as typeof Worker;
  try {
    return await work();
  } finally {
    window.Worker = real;
  }
}

describe("the booking page's first screen, prepared (widget/prepare.ts)", () => {
  it("has a worker load the date data, and takes its answer", async () => {
    expect(await warmDateFormats("it", 10_000)).to.equal("worker");
    await prepareBookPage("de", true);
  });

  it("goes on without a worker where none may start or its script is refused", async () => {
    const refused = class {
      constructor() {
        throw new DOMException("refused by the page's policy", "SecurityError");
      }
    };
    expect(await withWorker(refused, () => warmDateFormats("it", 10_000))).to.equal("unavailable");
    const failing = class {
      onerror: ((e: Event) => void) | null = null;
      constructor() {
        setTimeout(() => this.onerror?.(new Event("error")));
      }
      postMessage() {}
      terminate() {}
    };
    expect(await withWorker(failing, () => warmDateFormats("it", 10_000))).to.equal("unavailable");
  });

  it("goes on where the page may make no blob: URL", async () => {
    const create = URL.createObjectURL;
    URL.createObjectURL = () => {
      throw new DOMException("no blob: URLs here", "SecurityError");
    };
    try {
      expect(await warmDateFormats("it", 10_000)).to.equal("unavailable");
    } finally {
      URL.createObjectURL = create;
    }
  });

  it("gives up on a worker that does not answer in time, and stops it", async () => {
    const stopped: string[] = [];
    const silent = class {
      postMessage(locale: string) {
        stopped.push(`asked ${locale}`);
      }
      terminate() {
        stopped.push("terminated");
      }
    };
    expect(await withWorker(silent, () => warmDateFormats("fr", 20))).to.equal("late");
    expect(stopped).to.deep.equal(["asked fr", "terminated"]);
  });

  it("starts no worker unless asked to (a restaurant's own site may refuse it)", async () => {
    let started = 0;
    const counting = class {
      constructor() {
        started++;
      }
      postMessage() {}
      terminate() {}
    };
    await withWorker(counting, () => prepareBookPage("es"));
    expect(started).to.equal(0);
  });
});
