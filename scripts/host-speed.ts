/**
 * `npx tsx scripts/host-speed.ts`: how fast this machine's CPU is right
 * now, as one figure to print beside any timing of the test loop or a
 * benchmark: the CPU time (user + system, ms) of one scrypt hash with
 * Better Auth's parameters (N 16384, r 16, p 1, 64 bytes), the median of
 * ten. The same work took 89 ms on this project's machine at one hour and
 * 113–120 ms two hours later (2026-11-27): a shared host's speed moves
 * by a third, more than most changes to the loop (docs/testing.md).
 * Prints one line; asserts nothing.
 */
import { scryptSync } from "node:crypto";

const spent: number[] = [];
for (let round = 0; round < 10; round++) {
  const before = process.cpuUsage();
  scryptSync("correct horse battery staple", `salt-${round}`, 64, { N: 16384, r: 16, p: 1, maxmem: 64 * 1024 * 1024 });
  const used = process.cpuUsage(before);
  spent.push((used.user + used.system) / 1000);
}
spent.sort((a, b) => a - b);
console.log(`host speed: one scrypt (N 16384, r 16) takes ${spent[5]!.toFixed(1)} ms of CPU (median of 10)`);
