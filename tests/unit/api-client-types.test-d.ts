/**
 * What the client types generated from the OpenAPI document (`npm run api:types`, openapi-typescript)
 * refuse: the typecheck (`npm run typecheck`) checks this file; nothing runs it. A type says a value's
 * kind and whether it must be there; it cannot count. A name's length and `limit`'s range are in the
 * document (maxLength, minimum and maximum), which a client can validate with at run time, and the server
 * refuses the rest with 400; openapi.test.ts holds the document to the server's rules.
 */
import { expectTypeOf } from "vitest";
import type { components, operations } from "../support/api-types.generated";

type NameAddressRequest = components["schemas"]["NameAddressRequest"];
type InvestorsQuery = NonNullable<operations["getInvestors"]["parameters"]["query"]>;

// The name and the address are text, and neither may be left out.
expectTypeOf<NameAddressRequest>().toEqualTypeOf<{ email: string; full_name: string; address: string }>();
// @ts-expect-error a name that is not text
const _numberName: NameAddressRequest = { email: "ada@example.com", full_name: 42, address: "1 Main St" };
// @ts-expect-error a body without the name
const _noName: NameAddressRequest = { email: "ada@example.com", address: "1 Main St" };

// `limit` is a number, not text: the server reads its decimal digits as the integer the document names.
expectTypeOf<InvestorsQuery["limit"]>().toEqualTypeOf<number | undefined>();
// @ts-expect-error a limit written as text
const _textLimit: InvestorsQuery = { limit: "10" };
// @ts-expect-error a parameter get_investors does not take
const _unknownParameter: InvestorsQuery = { page: 2 };

// What no type can say: both compile, and the server answers each with 400.
const _nameTooLong: NameAddressRequest = { email: "ada@example.com", full_name: "x".repeat(201), address: "x" };
const _limitTooLarge: InvestorsQuery = { limit: 501 };
