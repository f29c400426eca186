/**
 * The child process that makes pictures (started by child.server.ts, one
 * job per process; decision 037). Loads sharp (one libvips thread, no
 * operation cache), says `{ ready: true }`, takes one job by IPC (`{ kind:
 * "photo", bytes }` or `{ kind: "photo", path }` (a file it reads and leaves
 * in place), `{ kind: "png", svg }` or `{ kind: "cover", bytes, width, height }`), answers `{ result,
 * peakRssBytes }` and exits: its memory goes back to the system. It exits
 * too when the server goes away (the IPC channel closes).
 */
import fs from "node:fs/promises";
import sharp from "sharp";
import type { PictureJob, PictureJobAnswer } from "./child.server";
import { coverJpeg, makePictureFiles, svgToPng } from "./making";

sharp.concurrency(1);
sharp.cache(false);

async function run(job: PictureJob): Promise<PictureJobAnswer["result"]> {
  if (job.kind === "photo") {
    const bytes =
      "path" in job
        ? await fs.readFile(job.path)
        : Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
    return { kind: "photo", made: await makePictureFiles(bytes) };
  }
  if (job.kind === "cover") {
    const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
    return { kind: "jpeg", jpeg: await coverJpeg(bytes, job.width, job.height) };
  }
  return { kind: "png", png: await svgToPng(job.svg) };
}

process.on("disconnect", () => process.exit(1));
process.once("message", (job: PictureJob) => {
  run(job)
    .then((result) => {
      const answer: PictureJobAnswer = { result, peakRssBytes: process.resourceUsage().maxRSS * 1024 };
      process.send!(answer, () => process.exit(0));
    })
    .catch((error: unknown) => {
      console.error(`picture child: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(2);
    });
});
process.send!({ ready: true });
