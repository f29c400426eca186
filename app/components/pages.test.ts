import { describe, expect, it } from "vitest";
import { askedPage, pageHref, pagesAround, pageSummary, readPage } from "./pages";

const noun = { one: "demande", many: "demandes", none: "Aucune demande" };

describe("the pager's numbers", () => {
  it("links the first and last pages and those next to the current one, « … » between", () => {
    expect(pagesAround(1, 1)).toEqual([1]);
    expect(pagesAround(1, 3)).toEqual([1, 2, 3]);
    expect(pagesAround(1, 9)).toEqual([1, 2, null, 9]);
    expect(pagesAround(5, 9)).toEqual([1, null, 4, 5, 6, null, 9]);
    // A gap of one number shows the number.
    expect(pagesAround(3, 9)).toEqual([1, 2, 3, 4, null, 9]);
    expect(pagesAround(7, 9)).toEqual([1, null, 6, 7, 8, 9]);
    expect(pagesAround(417, 417)).toEqual([1, null, 416, 417]);
  });
});

describe("the page asked", () => {
  it("reads a whole number from 1, anything else is page 1", () => {
    const asked = (query: string) => askedPage(new URLSearchParams(query));
    expect(asked("page=3")).toBe(3);
    for (const bad of ["", "page=", "page=abc", "page=0", "page=-2", "page=2.5", "page=1e3", "page=99999999999999"])
      expect(asked(bad), bad).toBe(1);
  });

  it("reads only the asked page's rows, and the last page for a page past it", async () => {
    const reads: [number, number][] = [];
    const rows = async (limit: number, offset: number) => {
      reads.push([limit, offset]);
      return [offset];
    };
    expect(await readPage(2, async () => 120, rows)).toEqual({ rows: [50], page: 2, pages: 3, total: 120 });
    expect(await readPage(999, async () => 120, rows)).toEqual({ rows: [100], page: 3, pages: 3, total: 120 });
    expect(await readPage(1, async () => 0, rows)).toEqual({ rows: [], page: 1, pages: 1, total: 0 });
    expect(reads).toEqual([
      [50, 50],
      [50, 100],
    ]);
  });
});

describe("what the page says", () => {
  it("counts in French with the Swiss thousands separator", () => {
    expect(pageSummary({ page: 2, pages: 400, total: 20000 }, noun)).toBe("Page 2 sur 400 · 20’000 demandes");
    expect(pageSummary({ page: 1, pages: 1, total: 1 }, noun)).toBe("1 demande");
    expect(pageSummary({ page: 1, pages: 1, total: 0 }, noun)).toBe("Aucune demande");
  });

  it("links a page keeping the list's other parameters", () => {
    expect(pageHref("/admin", "?statut=nouveau&q=dupont&page=4", 5)).toBe("/admin?statut=nouveau&q=dupont&page=5");
    expect(pageHref("/admin", "?q=a+b&page=4", 1)).toBe("/admin?q=a+b");
    expect(pageHref("/admin/abonnes", "", 1)).toBe("/admin/abonnes");
  });
});
