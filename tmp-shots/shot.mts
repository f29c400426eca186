import { chromium } from "@playwright/test";
import { chromiumLaunchOptions } from "../scripts/chromium.ts";
const [url, width, out, action] = process.argv.slice(2);
const browser = await chromium.launch(chromiumLaunchOptions);
const page = await browser.newPage({ viewport: { width: Number(width), height: 700 } });
await page.goto(url!, { waitUntil: "networkidle" });
if (action === "menu") await page.getByRole("button", { name: "Menu" }).click();
if (action === "reveal") { await page.getByRole("button", { name: "Révéler" }).click(); }
if (action === "tooltip") { await page.getByText("Samsung").first().hover(); await page.waitForTimeout(1000); }
await page.waitForTimeout(300);
await page.screenshot({ path: out! });
await browser.close();
