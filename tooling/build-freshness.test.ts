import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildState } from "./build-freshness";
import { COMMANDS, SERVER_ENTRY } from "./build-server";

describe("buildState: whether the build matches the sources (npm start builds, the operator's commands run the source)", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "build-freshness-"));
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));
  const write = (file: string, minutesAgo: number) => {
    const at = path.join(root, file);
    fs.mkdirSync(path.dirname(at), { recursive: true });
    fs.writeFileSync(at, "");
    const when = new Date(Date.now() - minutesAgo * 60_000);
    fs.utimesSync(at, when, when);
    // A folder's own time changes when a file is added: set it too, as an older checkout has it.
    fs.utimesSync(path.dirname(at), when, when);
  };

  it("is missing without a compiled server, current after the newest source, stale once a source or a command changes", () => {
    write("app/root.tsx", 30);
    write(COMMANDS.owner, 30);
    expect(buildState(root)).toBe("missing");
    write(path.join("build", SERVER_ENTRY), 20);
    expect(buildState(root)).toBe("current");
    write(COMMANDS.backup, 10);
    expect(buildState(root)).toBe("stale");
    write(path.join("build", SERVER_ENTRY), 5);
    expect(buildState(root)).toBe("current");
    write("app/routes/home.tsx", 1);
    expect(buildState(root)).toBe("stale");
  });
});
