/**
 * Owner accounts of the desk, from the server's terminal:
 *
 *   npm run owner:add -- owner@example.ch        creates the account
 *   npm run owner:reset-2fa -- owner@example.ch  a lost phone: new TOTP key and recovery codes
 *
 * The password is read from standard input (typed twice, hidden, in a
 * terminal; the first line when piped). `owner:add` checks it (at least 12
 * characters, zxcvbn score 3 or more: app/desk/password-policy.server.ts).
 * Everything it prints is in French: the owner runs it.
 * Both print the `otpauth://` URI, its QR code in the terminal and ten
 * recovery codes, once. Reads `.env` and the same settings as the server
 * (DATABASE_URL or DATA_DIR, AUTH_SECRET, SITE_URL). With the embedded
 * database, stop the server first (it holds DATA_DIR's lock).
 * Exit status: 0 done, 1 refused (the message says why), 2 wrong usage.
 */
import fs from "node:fs";
import readline from "node:readline";
import { Writable } from "node:stream";
import QRCode from "qrcode";
import { createDeskAuth, resolveAuthSecret } from "../app/desk/auth.server.ts";
import { addOwner, OwnerError, resetSecondFactor, type SecondFactorSetup } from "../app/desk/owners.server.ts";
import { openDatabase } from "../app/db/client.server.ts";
import { loadSettings, SettingsError } from "../app/config/settings.server.ts";

const [command, email] = process.argv.slice(2);
if (!["add", "reset-2fa"].includes(command ?? "") || !email) {
  console.error("Utilisation : npm run owner:add -- E-MAIL  |  npm run owner:reset-2fa -- E-MAIL");
  process.exit(2);
}

/** Reads one line; hidden when standard input is a terminal. */
function readLine(prompt: string, lines: AsyncIterator<string> | null): Promise<string> {
  if (lines) return lines.next().then((result) => (result.done ? "" : result.value));
  let muted = false;
  const output = new Writable({
    write(chunk, _encoding, callback) {
      if (!muted) process.stdout.write(chunk);
      callback();
    },
  });
  const rl = readline.createInterface({ input: process.stdin, output, terminal: true });
  return new Promise((resolve) => {
    rl.question(prompt, (answer) => {
      rl.close();
      process.stdout.write("\n");
      resolve(answer);
    });
    muted = true;
  });
}

async function readPassword(): Promise<string> {
  const piped = process.stdin.isTTY
    ? null
    : readline.createInterface({ input: process.stdin, terminal: false })[Symbol.asyncIterator]();
  const password = await readLine(
    "Mot de passe (au moins 12 caractères ; une phrase de quelques mots convient bien) : ",
    piped,
  );
  if (piped) return password;
  const again = await readLine("Le même mot de passe, une seconde fois : ", null);
  if (again !== password) throw new OwnerError("les deux mots de passe diffèrent");
  return password;
}

async function print(setup: SecondFactorSetup): Promise<void> {
  console.log(
    "\nScannez ce code QR avec une application d’authentification (Aegis, Google Authenticator, 1Password…) :\n",
  );
  console.log(await QRCode.toString(setup.totpUri, { type: "terminal", small: true }));
  console.log(`ou saisissez cette adresse dans l’application :\n${setup.totpUri}\n`);
  console.log(
    "Codes de secours (chacun sert une fois, si le téléphone est perdu). Imprimez-les ou recopiez-les maintenant :",
  );
  for (const code of setup.recoveryCodes) console.log(`  ${code}`);
  console.log("\nConnectez-vous sur /admin/connexion.");
}

if (fs.existsSync(".env")) process.loadEnvFile(".env");
let exitCode = 0;
try {
  const settings = loadSettings();
  const password = await readPassword();
  const database = await openDatabase({
    databaseUrl: settings.DATABASE_URL,
    dataDir: settings.DATA_DIR,
    createDataDir: settings.DATA_DIR_CREATE,
  });
  try {
    const auth = createDeskAuth({
      db: database.db,
      siteUrl: settings.SITE_URL,
      secret: await resolveAuthSecret(database.db, settings.AUTH_SECRET),
    });
    const setup =
      command === "add"
        ? await addOwner(auth, database.db, { email, password })
        : await resetSecondFactor(auth, database.db, { email, password });
    console.log(
      command === "add"
        ? `Compte créé pour ${email.trim().toLowerCase()}.`
        : "Nouveau second facteur créé ; toutes les sessions du compte sont fermées.",
    );
    await print(setup);
  } finally {
    await database.close();
  }
} catch (error) {
  if (error instanceof OwnerError || error instanceof SettingsError || (error as Error).name.endsWith("Error")) {
    console.error(`Refusé : ${(error as Error).message}`);
    exitCode = 1;
  } else throw error;
}
process.exit(exitCode);
