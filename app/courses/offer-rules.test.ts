/** The rules of an offer of a freed seat (decision 049): the hold, the couple, the withdrawal. */
import { describe, expect, it } from "vitest";
import { holdEnd, offerStateAt, offersToWithdraw, pickOffers } from "./offer-rules";

const NOW = new Date("2027-03-01T08:00:00Z");
const hours = (n: number) => new Date(NOW.getTime() + n * 3_600_000);

describe("holdEnd", () => {
  it("holds the seat the owner's hours when the course is far", () => {
    expect(holdEnd(NOW, 24, hours(72))).toEqual(hours(24));
  });

  it("never holds past the course's start minus 2 hours", () => {
    expect(holdEnd(NOW, 24, hours(10))).toEqual(hours(8));
    expect(holdEnd(NOW, 48, hours(26))).toEqual(hours(24));
  });

  it("makes no offer when less than an hour would be left to answer", () => {
    expect(holdEnd(NOW, 24, hours(3))).toEqual(hours(1));
    expect(holdEnd(NOW, 24, new Date(hours(3).getTime() - 1))).toBeNull();
    expect(holdEnd(NOW, 24, hours(1))).toBeNull();
  });
});

describe("pickOffers", () => {
  const waiting = [
    { id: 11, seats: 2, offered: false },
    { id: 12, seats: 1, offered: false },
    { id: 13, seats: 1, offered: false },
  ];

  it("offers a couple 2 seats or none: with one seat free, the next single person gets it", () => {
    expect(pickOffers(waiting, 1).map((entry) => entry.id)).toEqual([12]);
  });

  it("offers the couple first when 2 seats are free", () => {
    expect(pickOffers(waiting, 2).map((entry) => entry.id)).toEqual([11]);
    expect(pickOffers(waiting, 3).map((entry) => entry.id)).toEqual([11, 12]);
  });

  it("goes in arrival order and skips those already offered a seat", () => {
    const shuffled = [waiting[2]!, { ...waiting[1]!, offered: true }, waiting[0]!];
    expect(pickOffers(shuffled, 1).map((entry) => entry.id)).toEqual([13]);
    expect(pickOffers(waiting, 0)).toEqual([]);
  });
});

describe("offersToWithdraw", () => {
  it("withdraws the latest open offers until the rest fit the free seats", () => {
    const open = [
      { id: 1, seats: 1 },
      { id: 2, seats: 2 },
      { id: 3, seats: 1 },
    ];
    expect(offersToWithdraw(open, 4)).toEqual([]);
    expect(offersToWithdraw(open, 3).map((offer) => offer.id)).toEqual([3]);
    expect(offersToWithdraw(open, 1).map((offer) => offer.id)).toEqual([3, 2]);
    expect(offersToWithdraw(open, -1).map((offer) => offer.id)).toEqual([3, 2, 1]);
  });
});

describe("offerStateAt", () => {
  const holdUntil = "2026-11-28T10:00:00.000Z";
  it("says an open offer is expired from the end of its hold, before the timer's job closes it", () => {
    expect(offerStateAt({ state: "open", holdUntil }, new Date("2026-11-28T09:59:59Z"))).toBe("open");
    expect(offerStateAt({ state: "open", holdUntil }, new Date(holdUntil))).toBe("expired");
  });
  it("keeps any other state as stored", () => {
    expect(offerStateAt({ state: "accepted", holdUntil }, new Date("2026-11-29T00:00:00Z"))).toBe("accepted");
    expect(offerStateAt({ state: "declined", holdUntil }, new Date("2026-11-27T00:00:00Z"))).toBe("declined");
  });
});
