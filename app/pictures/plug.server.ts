/**
 * What the owner's pictures give the mechanisms (app/desk/feature.ts): their tables, none holding a
 * visitor's data; at each start, the photos an earlier process was receiving when it was killed removed.
 */
import type { Feature } from "~/desk/feature";
import { removeLeftovers, uploadTmpDir } from "./upload-form.server";

export const picturesFeature: Feature = {
  name: "pictures",
  person: {
    tables: [],
    otherTables: {
      pictures: "the owner's pictures and their descriptions (no metadata kept: app/pictures/pictures.server.ts)",
      picture_files: "the resized files of the owner's pictures, without EXIF or GPS data",
      site_pictures: "which of the owner's pictures fills a slot of the home page",
      site_share_images: "the site's share image made with the owner's hero photo (app/seo/share-image.server.ts)",
    },
  },
  async atStart({ settings }) {
    removeLeftovers(uploadTmpDir(settings.DATA_DIR));
  },
};
