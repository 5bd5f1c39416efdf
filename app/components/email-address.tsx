/**
 * An e-mail address that may break onto a second line only before its "@", where a reader still
 * sees two whole parts; a part wider than its box on its own breaks where it must (the CSS's
 * overflow-wrap), never hidden behind an ellipsis.
 */
export function EmailAddress({ email }: { email: string }) {
  const at = email.lastIndexOf("@");
  if (at <= 0) return <>{email}</>;
  return (
    <>
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </>
  );
}
