import { Transform } from "node:stream";

/**
 * A pass-through that sends on, once per turn of the event loop, everything written to it during
 * that turn. React writes a ready document in 2 kB pieces, all at once, and each piece then
 * crossed a web stream, Express and a socket write on its own (about fifty for an administrator's
 * table page). Nothing is held back longer than the turn it was written in.
 */
export function batchedPerTurn(): Transform {
  let pieces: Buffer[] = [];
  let scheduled = false;
  const sendOn = () => {
    scheduled = false;
    if (pieces.length === 0) return;
    stream.push(pieces.length === 1 ? pieces[0] : Buffer.concat(pieces));
    pieces = [];
  };
  const stream = new Transform({
    transform(piece: Buffer, _encoding, done) {
      pieces.push(piece);
      if (!scheduled) {
        scheduled = true;
        setImmediate(sendOn);
      }
      done();
    },
    flush(done) {
      sendOn();
      done();
    },
  });
  return stream;
}
