/**
 * `npm run owner:add` speaks French and refuses guessable passwords
 * (issue 24, item 11), before it touches the database.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { expect, it } from "vitest";
import { commandArguments } from "../../tooling/build-server";
import { freshDataDir } from "../support/harness";

function ownerAdd(password: string, dataDir: string) {
  return spawnSync(process.execPath, [...commandArguments("owner", process.env.BUILD_DIR), "add", "owner@example.ch"], {
    input: `${password}\n`,
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: "", DATA_DIR: dataDir, LOG_LEVEL: "warn" },
  });
}

it("refuses motdepasse123 and Lausanne2026 in French, and creates no account", () => {
  const dataDir = freshDataDir();
  try {
    for (const weak of ["motdepasse123", "Lausanne2026"]) {
      const result = ownerAdd(weak, dataDir);
      expect(result.status, weak).toBe(1);
      expect(result.stderr).toContain("Refusé : ce mot de passe est trop facile à deviner");
      expect(result.stdout).not.toContain("Compte créé");
    }
    const accepted = ownerAdd("Correct-Horse-Battery-9", dataDir);
    expect(accepted.status, accepted.stderr).toBe(0);
    expect(accepted.stdout).toContain("Compte créé pour owner@example.ch.");
    expect(accepted.stdout).toContain("Codes de secours");
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}, 60_000);
