// What `bun run start` and `bun run dev` share: the stack's ports from their variables, the check
// that they are free before anything starts, and the console lines of the stack's parts.
import { startMailCatcher } from '@store/stack/mail-catcher';
import { type PortNeed, portFromEnv, portProblems } from '@store/stack/ports';

/** The ports of the stack and the API, from the variables taken out of the environment. */
export function stackPorts(portEnv: Record<string, string>) {
  return {
    postgres: portFromEnv(portEnv, 'POSTGRES_PORT', 54321),
    anvil: portFromEnv(portEnv, 'ANVIL_PORT', 8545),
    indexer: portFromEnv(portEnv, 'INDEXER_PORT', 42069),
    api: portFromEnv(portEnv, 'PORT', 3000),
    mail: portFromEnv(portEnv, 'MAIL_PORT', 2525),
    mailInbox: portFromEnv(portEnv, 'MAIL_INBOX_PORT', 8025),
  };
}

/** Where the worker sends receipts, and the local inbox when the command runs one. */
export interface LocalMail {
  /** SMTP_URL of the worker; undefined: no mail server (nothing is promised or sent). */
  smtpUrl: string | undefined;
  /** The local inbox page, when the catcher runs. */
  inboxUrl: string | undefined;
  stop(): Promise<void>;
}

/**
 * The mail server of a local command: the shell's SMTP_URL when set; else, in local mode, the mail
 * catcher on MAIL_PORT with its inbox page on MAIL_INBOX_PORT; else none.
 */
export async function localMail(
  env: Record<string, string | undefined>,
  localMode: boolean,
  ports: ReturnType<typeof stackPorts>,
): Promise<LocalMail> {
  if (env.SMTP_URL) return { smtpUrl: env.SMTP_URL, inboxUrl: undefined, stop: async () => {} };
  if (!localMode) return { smtpUrl: undefined, inboxUrl: undefined, stop: async () => {} };
  const catcher = await startMailCatcher({ smtpPort: ports.mail, inboxPort: ports.mailInbox });
  return { smtpUrl: catcher.smtpUrl, inboxUrl: catcher.inboxUrl, stop: catcher.stop };
}

/** The API's and the worker's part of the mail settings: the URL (a secret) is the worker's only. */
export function mailEnvironments(mail: LocalMail) {
  return {
    api: { RECEIPTS_BY_EMAIL: mail.smtpUrl ? 'true' : 'false', SMTP_URL: undefined },
    worker: { SMTP_URL: mail.smtpUrl },
  };
}

/**
 * Exits with one line per busy port, naming the variable that moves it, before anything starts.
 * `own` are the command's own needs (the API, Vite); the stack's parts are added unless the
 * environment names a real database or chain.
 */
export async function exitOnBusyPorts(
  own: PortNeed[],
  ports: ReturnType<typeof stackPorts>,
  env: Record<string, string | undefined>,
  command: string,
): Promise<void> {
  const problems = await portProblems(
    [
      ...own,
      ...(env.DATABASE_URL
        ? []
        : [{ variable: 'POSTGRES_PORT', port: ports.postgres, what: 'the embedded Postgres' }]),
      ...(env.RPC_URL
        ? []
        : [{ variable: 'ANVIL_PORT', port: ports.anvil, what: 'the local chain' }]),
      { variable: 'INDEXER_PORT', port: ports.indexer, what: 'the indexer' },
      ...(env.SMTP_URL
        ? []
        : [
            { variable: 'MAIL_PORT', port: ports.mail, what: 'the local mail catcher (SMTP)' },
            {
              variable: 'MAIL_INBOX_PORT',
              port: ports.mailInbox,
              what: 'the local inbox page',
            },
          ]),
    ],
    `bun run ${command}`,
  );
  if (problems.length === 0) return;
  for (const problem of problems) console.error(`${command.padEnd(8)}| ${problem}`);
  process.exit(1);
}

/** Prints a line of a stack part, leaving out Postgres's chatter and empty indexed blocks. */
export function stackLog(part: string, line: string): void {
  if (part === 'postgres' && !/ERROR|FATAL|PANIC/.test(line)) return;
  if (part === 'indexer' && /Indexed block .*event_count=0/.test(line)) return;
  console.log(`${part.padEnd(8)}| ${line}`);
}
