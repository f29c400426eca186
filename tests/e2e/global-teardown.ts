/** After the browser tests: removes the run's folder of throw-away files (tests/support/scratch.ts). */
import { removeScratchDir } from "../support/scratch";

export default function teardown(): void {
  removeScratchDir();
}
