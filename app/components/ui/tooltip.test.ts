import { describe, expect, test } from "vitest";
import { placeBeside } from "./tooltip-content";

const viewport = { width: 320, height: 700, pixelRatio: 1 };

describe("placeBeside", () => {
  test("puts the hint above the trigger, centred, 11 px away (6 px plus the arrow)", () => {
    const place = placeBeside({ left: 100, top: 300, bottom: 348, width: 100 }, { width: 80, height: 40 }, viewport);
    expect(place).toEqual({ side: "top", x: 110, y: 249, arrowX: 35 });
  });

  test("goes below when there is no room above, and stays inside the viewport", () => {
    const place = placeBeside({ left: 0, top: 10, bottom: 30, width: 20 }, { width: 200, height: 40 }, viewport);
    expect(place).toEqual({ side: "bottom", x: 0, y: 41, arrowX: 5 });
    const right = placeBeside({ left: 300, top: 300, bottom: 320, width: 20 }, { width: 200, height: 40 }, viewport);
    expect(right.x).toBe(120);
    expect(right.arrowX).toBe(185);
  });
});
