/**
 * An address as the pages show it: each line it was given on a line of its own, so that "Suite 200" does
 * not run into the city after it. An address stored before its lines were kept (migration 019) has only
 * its one line, and shows as that.
 */
export function AddressLines({ address, lines }: { address: string; lines: string | null }) {
  return (
    <span className="address-lines">
      {(lines ? lines.split("\n") : [address]).map((line, index) => (
        <span key={index} className="address-lines__line">
          {line}
        </span>
      ))}
    </span>
  );
}
