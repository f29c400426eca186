/** The processes a process started, read from Linux's /proc (tests and benchmarks of the pictures' child process). */
import fs from "node:fs";

/**
 * The processes making pictures that process `pid` started
 * (app/pictures/child.server.ts), by their command line (Linux /proc).
 */
export function pictureChildren(pid: number): number[] {
  const read = (file: string) => {
    try {
      return fs.readFileSync(file, "utf8");
    } catch {
      return "";
    }
  };
  return read(`/proc/${pid}/task/${pid}/children`)
    .split(" ")
    .filter(Boolean)
    .map(Number)
    .filter((child) => read(`/proc/${child}/cmdline`).includes("picture-child"));
}
