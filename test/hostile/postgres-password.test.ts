// A connection string's password must never reach a message, whichever way it is written.
// Every string here points at a port nothing listens on (or a socket directory that does not
// exist), so no server is needed: the failure to connect is what prints the target.
import { describe, expect, test } from '@jest/globals';
import { readPersistedCalls } from '../../src/sources/persisted.js';
import { InputError } from '../../src/util/errors.js';
import { cliInProcess, demoCopy } from '../cli/helpers.js';
import { collect } from '../sources/helpers.js';

// [form, connection string, texts that must not appear anywhere in the output]
const forms: Array<[string, string, string[]]> = [
  ['user:password in a URL', 'postgres://reader:S3cr3t-pw-one@127.0.0.1:1/db', ['S3cr3t-pw-one', 'pw-one']],
  ['a password holding `@`', 'postgres://reader:p@ss-w0rd-two@127.0.0.1:1/db', ['p@ss-w0rd-two', 'ss-w0rd-two', 'p%40ss']],
  ['a percent-encoded `@`', 'postgresql://reader:Enc%40ded-pw-six@127.0.0.1:1/db', ['Enc%40ded', 'Enc@ded', 'ded-pw-six']],
  ['a password holding `@` and a space', 'postgres://reader:Sp@ce s-pw-eight@127.0.0.1:1/db', ['Sp@ce', 'ce s-pw', 's-pw-eight', 'ce%20s']],
  ['`?password=`', 'postgres://reader@127.0.0.1:1/db?password=Qu3ry-pw-three&sslmode=disable', ['Qu3ry-pw-three', 'pw-three']],
  ['`?sslpassword=`', 'postgres://reader@127.0.0.1:1/db?sslpassword=Ssl-pw-nine', ['Ssl-pw-nine', 'pw-nine']],
  ['keyword=value', 'host=127.0.0.1 port=1 user=reader password=K3yval-pw-four dbname=db', ['K3yval-pw-four', 'pw-four']],
  ["keyword=value with a quoted password", "host=127.0.0.1 port=1 password='qu0ted pw five' dbname=db", ['qu0ted', 'pw five']],
  ['a socket URL', 'socket://reader:S0cket-pw-seven@/nonexistent/pc-socket-dir?db=db', ['S0cket-pw-seven', 'pw-seven']],
];

describe('the password of a PostgreSQL connection string never appears in a message', () => {
  test.each(forms)('%s: the error names the source and masks the password', async (_, postgres, secrets) => {
    const error = await collect(readPersistedCalls({ name: 'replica', postgres, query: 'SELECT 1' })).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'persisted/unreachable' });
    const message = (error as Error).message;
    expect(message).toMatch(/^Persisted source `replica`: /);
    expect(message).toContain('***');
    for (const secret of secrets) expect(message).not.toContain(secret);
  });

  test('a URL keeps everything but the password in its display', async () => {
    const error = await collect(readPersistedCalls({ name: 'replica', postgres: 'postgres://reader:p@ss-w0rd-two@127.0.0.1:1/db?sslmode=disable', query: 'SELECT 1' })).catch((e: unknown) => e);
    expect((error as Error).message).toContain('`postgres://reader:***@127.0.0.1:1/db?sslmode=disable`');
  });

  test('keyword=value, which the driver cannot read, is refused before connecting, masked', async () => {
    const error = await collect(readPersistedCalls({ name: 'replica', postgres: 'host=127.0.0.1 port=1 user=reader password=K3yval-pw-four dbname=db', query: 'SELECT 1' })).catch((e: unknown) => e);
    expect((error as Error).message).toContain('`host=127.0.0.1 port=1 user=reader password=*** dbname=db`');
    expect((error as Error).message).toContain('expected a URL');
  });

  // Through the CLI, the forms that differ most in how they are parsed and shown.
  const throughCli = forms.filter(([form]) => ['a password holding `@` and a space', '`?password=`', 'keyword=value with a quoted password', 'a socket URL'].includes(form));

  test('`check` prints no password: each run exits 2 naming the source, and no password text is in its output', async () => {
    expect(throughCli).toHaveLength(4);
    const demo = demoCopy();
    try {
      const config = demo.read('prompt-contract.config.ts');
      // One config per form.
      for (const [index, [, postgres]] of throughCli.entries()) {
        demo.write(`pg-${index}.config.ts`, config.replace('persisted: [', `persisted: [\n    { name: 'pg-${index}', postgres: ${JSON.stringify(postgres)}, query: 'SELECT 1' },`));
      }
      // In this process (see cliInProcess): what is checked is the CLI's output, not the process.
      const done: Array<{ code: number; stdout: string; stderr: string }> = [];
      for (const index of throughCli.keys()) done.push(await cliInProcess(['check', '--config', `pg-${index}.config.ts`], { cwd: demo.dir }));
      for (const [index, [form, , secrets]] of throughCli.entries()) {
        const { code, stdout, stderr } = done[index]!;
        expect({ form, code, named: stderr.includes(`Persisted source \`pg-${index}\``), masked: stderr.includes('***') }).toEqual({ form, code: 2, named: true, masked: true });
        for (const secret of secrets) {
          expect({ form, secret, leaked: stdout.includes(secret) || stderr.includes(secret) }).toEqual({ form, secret, leaked: false });
        }
      }
    } finally {
      demo.remove();
    }
  }, 90_000);
});
