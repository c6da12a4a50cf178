// The floor every recorded-calls run stands on: read the file and JSON.parse each line,
// nothing else. It reads the way prompt-contract reads (1 MiB reads into one buffer, whole
// lines decoded about 64 KiB at a time, Latin-1 copy for ASCII, only a line cut by a read
// copied), so the ratio measures only what validation adds on top of reading and parsing.
import { isAscii } from 'node:buffer';
import { open } from 'node:fs/promises';

const decode = (bytes) => (isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8'));

/** Lines that parse and lines that do not (blank lines skipped). */
export async function parseFloor(file) {
  let parsed = 0;
  let failed = 0;
  const eat = (text) => {
    let from = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
      const line = text.slice(from, nl);
      from = nl + 1;
      if (line.length === 0) continue;
      try {
        JSON.parse(line);
        parsed++;
      } catch {
        failed++;
      }
    }
  };
  const handle = await open(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    let carry;
    let position = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const bytes = buf.subarray(0, bytesRead);
      let from = 0;
      if (carry !== undefined) {
        const nl = bytes.indexOf(10);
        if (nl === -1) {
          carry = Buffer.concat([carry, bytes]);
          continue;
        }
        eat(decode(Buffer.concat([carry, bytes.subarray(0, nl + 1)])));
        carry = undefined;
        from = nl + 1;
      }
      const nl = bytes.lastIndexOf(10);
      while (from <= nl) {
        const cut = from + (1 << 16) > nl ? nl : bytes.indexOf(10, from + (1 << 16));
        eat(decode(bytes.subarray(from, cut + 1)));
        from = cut + 1;
      }
      if (from < bytesRead) carry = Buffer.from(bytes.subarray(from));
    }
    if (carry !== undefined) eat(`${decode(carry)}\n`);
  } finally {
    await handle.close();
  }
  return { parsed, failed };
}
