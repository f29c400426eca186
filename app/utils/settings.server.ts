/**
 * The settings as a loader sees them: those the server passed in `context`,
 * or, while prerendering at build time (no server), the environment's.
 * @throws SettingsError (see server/env.ts) when a variable is wrong.
 */
import type { AppLoadContext } from "react-router";
import { loadSettings, type Settings } from "../../server/env";

export function settingsFrom(context: AppLoadContext | undefined): Settings {
  return context?.settings ?? loadSettings();
}
