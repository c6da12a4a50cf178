// The floor every recorded-calls run stands on: read the file and JSON.parse each line,
// nothing else. It reads the way prompt-contract reads (1 MB stream chunks, whole runs of
// lines decoded at once, Latin-1 copy for ASCII), so the ratio measures only what
// validation adds on top of parsing.
import { isAscii } from 'node:buffer';
import { createReadStream } from 'node:fs';

const decode = (bytes) => (isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8'));

/** Lines that parse and lines that do not (blank lines skipped). */
export async function parseFloor(file) {
  let parsed = 0;
  let failed = 0;
  let rest = null;
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
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    const nl = chunk.lastIndexOf(10);
    if (nl === -1) {
      rest = rest === null ? chunk : Buffer.concat([rest, chunk]);
      continue;
    }
    const head = chunk.subarray(0, nl + 1);
    eat(decode(rest === null ? head : Buffer.concat([rest, head])));
    rest = nl + 1 < chunk.length ? chunk.subarray(nl + 1) : null;
  }
  if (rest !== null) eat(`${decode(rest)}\n`);
  return { parsed, failed };
}
