import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatDataUrl, parseDataUrl, placeholderFileName } from "./data-url.js";

const token = fc.stringMatching(/^[a-z0-9][a-z0-9.+-]{0,10}$/);
const mediaType = fc
  .tuple(token, token, fc.array(fc.tuple(token, token), { maxLength: 2 }))
  .map(([type, sub, params]) =>
    [`${type}/${sub}`, ...params.map(([k, v]) => `${k}=${v}`)].join(";"),
  );
const base64 = fc.base64String({ maxLength: 64 });
/** Strings built from the pieces of a data URL, so most are near misses or hits. */
const nearDataUrl = fc
  .tuple(
    fc.constantFrom("data:", "DATA:", "Data:", "data", "", "http://"),
    fc.string({ maxLength: 12 }),
    fc.constantFrom(";base64,", ";BASE64,", ",", ";base64", ""),
    fc.string({ maxLength: 12 }),
  )
  .map((pieces) => pieces.join(""));

describe("parseDataUrl", () => {
  it("reads back what formatDataUrl writes", () => {
    fc.assert(
      fc.property(mediaType, base64, (type, data) => {
        expect(parseDataUrl(formatDataUrl({ mediaType: type, data }))).toEqual({
          mediaType: type,
          data,
        });
      }),
    );
  });

  it("gives back the URL it parsed", () => {
    fc.assert(
      fc.property(nearDataUrl, (value) => {
        const parsed = parseDataUrl(value);
        if (parsed !== undefined) {
          expect(formatDataUrl(parsed).toLowerCase()).toBe(value.toLowerCase());
        }
      }),
    );
  });

  it("refuses anything without the data scheme and the base64 marker", () => {
    fc.assert(
      fc.property(fc.webUrl(), (url) => {
        expect(parseDataUrl(url)).toBeUndefined();
      }),
    );
    expect(parseDataUrl("data:text/plain,hello")).toBeUndefined();
    expect(parseDataUrl("image/png;base64,AAAA")).toBeUndefined();
    expect(parseDataUrl("")).toBeUndefined();
  });

  it("keeps parameters in the media type and reads the scheme in any case", () => {
    expect(parseDataUrl("data:text/plain;charset=utf-8;base64,aGk=")).toEqual({
      mediaType: "text/plain;charset=utf-8",
      data: "aGk=",
    });
    expect(parseDataUrl("DATA:image/png;BASE64,AAAA")).toEqual({
      mediaType: "image/png",
      data: "AAAA",
    });
    expect(parseDataUrl("data:;base64,")).toEqual({ mediaType: "", data: "" });
  });

  it("placeholderFileName: a name whose extension OpenAI reads the type from", () => {
    expect(placeholderFileName("application/pdf")).toBe("file.pdf");
    expect(placeholderFileName("text/plain;charset=utf-8")).toBe("file.txt");
    expect(placeholderFileName("audio/x-wav")).toBe("file.wav");
    expect(placeholderFileName("video/mp4")).toBe("file.mp4");
    expect(placeholderFileName("")).toBe("file");
  });
});
