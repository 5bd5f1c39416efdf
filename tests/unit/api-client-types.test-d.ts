/**
 * What the client types generated from the OpenAPI document (`npm run api:types`, openapi-typescript)
 * refuse: the typecheck (`npm run typecheck`) checks this file; nothing runs it. A type cannot count
 * characters, so a text the document bounds takes only text `boundedText` has counted
 * (tests/support/api-bounds.ts, whose counting api-bounds.test.ts checks); `limit`'s range is short
 * enough to be the union of its values. openapi.test.ts holds the document's bounds to the server's rules.
 */
import { expectTypeOf } from "vitest";
import { boundedText, type BoundedText } from "../support/api-bounds";
import type { components, operations } from "../support/api-types.generated";

type NameAddressRequest = components["schemas"]["NameAddressRequest"];
type InvestorsQuery = NonNullable<operations["getInvestors"]["parameters"]["query"]>;

// The name and the address are counted text, and neither may be left out.
expectTypeOf<NameAddressRequest["full_name"]>().toEqualTypeOf<BoundedText<200>>();
expectTypeOf<NameAddressRequest["address"]>().toEqualTypeOf<BoundedText<602>>();
const email = boundedText("ada@example.com", 254);
const _checked: NameAddressRequest = {
  email,
  full_name: boundedText("Ada Lovelace", 200),
  address: boundedText("1 Main St", 602),
};
// @ts-expect-error a name of 201 characters, which the server refuses: uncounted text does not compile
const _nameTooLong: NameAddressRequest = { email, full_name: "x".repeat(201), address: boundedText("x", 602) };
const _nameWrongBound: NameAddressRequest = {
  email,
  // @ts-expect-error a name counted against the address's bound (602), not the name's (200)
  full_name: boundedText("Ada", 602),
  address: boundedText("x", 602),
};
// @ts-expect-error a name that is not text
const _numberName: NameAddressRequest = { email, full_name: 42, address: boundedText("x", 602) };
// @ts-expect-error a body without the name
const _noName: NameAddressRequest = { email, address: boundedText("1 Main St", 602) };

// `limit` is one of the numbers 1 to 500, the server's range.
const _limitLeast: InvestorsQuery = { limit: 1 };
const _limitMost: InvestorsQuery = { limit: 500 };
// @ts-expect-error a limit of 501, which the server refuses
const _limitTooLarge: InvestorsQuery = { limit: 501 };
// @ts-expect-error a limit of 0, which the server refuses
const _limitZero: InvestorsQuery = { limit: 0 };
// @ts-expect-error a limit written as text
const _textLimit: InvestorsQuery = { limit: "10" };
// @ts-expect-error a parameter get_investors does not take
const _unknownParameter: InvestorsQuery = { page: 2 };
