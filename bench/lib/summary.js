/** What a recorded-calls run found, from its diagnostics: calls, failing rows, unknown-tool calls, unreadable lines. */
export function summarize(diagnostics) {
  let invalid = 0;
  let unknown = 0;
  let corruptListed = 0;
  let corruptTotal;
  let calls;
  for (const d of diagnostics) {
    if (d.ruleId === 'recorded/invalid') invalid += d.witnessCount ?? 0;
    else if (d.ruleId === 'recorded/unknown-tool') {
      unknown += d.witnessCount ?? 0;
      calls = d.total;
    } else if (d.ruleId === 'recorded/corrupt') {
      if (d.line === undefined && d.witnessCount !== undefined) corruptTotal = d.witnessCount;
      else corruptListed++;
    }
  }
  return { calls, invalid, unknown, corrupt: corruptTotal ?? corruptListed, findings: diagnostics.length };
}
