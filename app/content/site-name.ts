/**
 * The site's name, "Formation & Assistance Informatique", the suffix of
 * every page title and the sender's name of the mails. Read on the server
 * (loaders, mails); the browser gets it in the root loader's data.
 */
import { brand } from "./brand";

export const siteName = `${brand.line1} ${brand.line2}`;
