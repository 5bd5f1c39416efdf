import { z } from "zod";
import { controlCharacterErrors } from "~/content/forms";
import {
  fieldsWithControlCharacters,
  hasControlCharacter,
  queryHasControlCharacter,
  withoutControlCharacters,
} from "~/http/control-characters.server";
import { parseSubmission } from "~/http/form-submission.server";

const C0_REFUSED = [...Array(32).keys()].filter((code) => ![9, 10, 13].includes(code));

describe("hasControlCharacter", () => {
  it("finds NUL and every other C0 control character", () => {
    for (const code of C0_REFUSED) {
      expect(hasControlCharacter(`a${String.fromCharCode(code)}b`), `U+${code.toString(16).padStart(4, "0")}`).toBe(
        true,
      );
    }
  });

  it("lets tab, line feed and carriage return through, and everything past U+001F", () => {
    expect(hasControlCharacter("line one\r\nline\ttwo\n")).toBe(false);
    expect(hasControlCharacter("café – ½ 😀 \u007f \u0085 \u2028")).toBe(false);
    expect(hasControlCharacter("")).toBe(false);
  });

  it("takes them out of a value to show back, leaving tabs and line breaks", () => {
    expect(withoutControlCharacters("a\u0000b\u001bc\td\r\ne")).toBe("abc\td\r\ne");
  });
});

describe("queryHasControlCharacter", () => {
  it("reads the query as a loader does: escapes decoded, in names and values", () => {
    expect(queryHasControlCharacter("?q=%00")).toBe(true);
    expect(queryHasControlCharacter("q=a%1Bb")).toBe(true);
    expect(queryHasControlCharacter("?%00=x")).toBe(true);
    expect(queryHasControlCharacter("?q=a&q=b%07")).toBe(true);
    expect(queryHasControlCharacter("?q=Ada+Lovelace&nda=signed")).toBe(false);
    expect(queryHasControlCharacter("?q=a%09b%0D%0A")).toBe(false);
    expect(queryHasControlCharacter("")).toBe(false);
    // A malformed escape is text to a loader, not a control character.
    expect(queryHasControlCharacter("?q=%E0%A4%A&r=%zz")).toBe(false);
  });
});

describe("fieldsWithControlCharacters", () => {
  it("names each field whose text holds one, nested fields by their path", () => {
    expect(
      fieldsWithControlCharacters({
        id: "a\u0000",
        email: "ok@example.com",
        response: { id: "x\u0007", list: ["fine", "bad\u001f"] },
        count: 3,
        flag: true,
        nothing: null,
      }),
    ).toEqual(["id", "response.id", "response.list.1"]);
  });

  it("names a field whose name holds one, with the character escaped as JSON writes it", () => {
    expect(fieldsWithControlCharacters({ "i\u0000d": "x", inner: { "\u001b": 1 } })).toEqual([
      "i\\u0000d",
      "inner.\\u001b",
    ]);
  });

  it("finds none in clean text, tabs and line breaks included", () => {
    expect(fieldsWithControlCharacters({ message: "one\r\ntwo\tthree", list: [] })).toEqual([]);
  });
});

describe("parseSubmission", () => {
  const schema = z.object({ name: z.string(), note: z.string().optional() });
  const formOf = (entries: [string, string][]) => {
    const data = new FormData();
    for (const [name, value] of entries) data.append(name, value);
    return data;
  };

  it("refuses a field holding one with that field's message, and shows the value back without it", () => {
    const submission = parseSubmission(
      formOf([
        ["name", "Ada\u0000 Lovelace"],
        ["note", "fine"],
      ]),
      schema,
    );
    expect(submission.status).toBe("error");
    expect(submission.reply()).toEqual({
      error: { name: [controlCharacterErrors.field] },
      initialValue: { name: "Ada Lovelace", note: "fine" },
    });
  });

  it("refuses one in a field the schema does not know, or in a second value of a field", () => {
    expect(
      parseSubmission(
        formOf([
          ["name", "Ada"],
          ["extra", "\u0007"],
        ]),
        schema,
      ).reply().error,
    ).toEqual({
      extra: [controlCharacterErrors.field],
    });
    const twice = parseSubmission(
      formOf([
        ["name", "Ada"],
        ["name", "B\u0000"],
      ]),
      schema,
    );
    expect(twice.status).toBe("error");
    expect(twice.reply().error.name).toEqual([controlCharacterErrors.field]);
  });

  it("refuses one in a field's name with the form's message", () => {
    const submission = parseSubmission(
      formOf([
        ["name", "Ada"],
        ["na\u0000me", "x"],
      ]),
      schema,
    );
    expect(submission.status).toBe("error");
    expect(submission.reply()).toEqual({ error: { "": [controlCharacterErrors.name] }, initialValue: { name: "Ada" } });
  });

  it("keeps the schema's messages for the other fields", () => {
    const submission = parseSubmission(formOf([["note", "x\u001b"]]), schema);
    expect(Object.keys(submission.reply().error).sort()).toEqual(["name", "note"]);
    expect(submission.reply().error.note).toEqual([controlCharacterErrors.field]);
  });

  it("accepts tabs and line breaks", () => {
    const submission = parseSubmission(
      formOf([
        ["name", "Ada"],
        ["note", "one\r\ntwo\tthree"],
      ]),
      schema,
    );
    expect(submission.status).toBe("success");
    expect(submission.value).toEqual({ name: "Ada", note: "one\r\ntwo\tthree" });
  });
});
