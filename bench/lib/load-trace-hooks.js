// The resolve hook of load-trace.cjs: appends each resolved file URL to the trace file.
import { appendFileSync } from 'node:fs';

let out;

export function initialize(data) {
  out = data?.out;
}

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (out && result.url.startsWith('file:')) appendFileSync(out, `${result.url}\n`);
  return result;
}
