/**
 * Stored settings are validated once per text: a request reads its property's row afresh, and
 * the same settings resolve to the one shared, frozen answer; other settings to their own.
 */
import { describe, expect, it } from "vitest";
import { resolveSettings } from "../../shared/schemas";

describe("resolveSettings", () => {
  it("answers equal stored settings with one frozen object, filled with the defaults", () => {
    const stored = () => ({
      timezone: "Europe/Rome",
      turn_times: [
        { max_pax: 6, minutes: 120 },
        { max_pax: 2, minutes: 90 },
      ],
    });
    const a = resolveSettings(stored());
    const b = resolveSettings(JSON.parse(JSON.stringify(stored())));
    expect(b).toBe(a);
    expect(a.timezone).toBe("Europe/Rome");
    expect(a.slot_interval).toBe(15);
    expect(a.turn_times.map((t) => t.max_pax)).toEqual([2, 6]);
    expect(Object.isFrozen(a) && Object.isFrozen(a.turn_times) && Object.isFrozen(a.turn_times[0])).toBe(
      true,
    );
    expect(() => {
      (a as { slot_interval: number }).slot_interval = 30;
    }).toThrow(TypeError);
  });

  it("answers other settings, and invalid values dropped to their defaults, with their own", () => {
    const rome = resolveSettings({ timezone: "Europe/Rome", slot_interval: 30 });
    const paris = resolveSettings({ timezone: "Europe/Paris", slot_interval: 30 });
    expect(paris).not.toBe(rome);
    expect(paris.timezone).toBe("Europe/Paris");
    const invalid = resolveSettings({ timezone: "Europe/Rome", slot_interval: 2 });
    expect(invalid.slot_interval).toBe(15);
    expect(invalid.timezone).toBe("Europe/Rome");
  });
});
