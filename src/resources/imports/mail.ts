/**
 * The e-mail that closes an import, sent once to the user who imported: how many contacts were imported, and, when
 * rows failed, those rows as a CSV file to fix and import again (each with its reason in a first column). Sent
 * through the `send_email` binding; taken before sending (`mail_attempted_at`) by one sender only, so a retried or
 * overlapping run never sends it twice.
 */
import { sql } from "drizzle-orm";
import { stringify } from "csv-stringify/sync";
import { rowsOf } from "../../db/statements";
import type { Bindings, Database } from "../../env";
import { DEFAULT_SENDER } from "../../events/outbox";

export const SUCCESS_SUBJECT = "[MPDX] Importing your CSV contacts completed";
export const FAILURE_SUBJECT = "[MPDX] Importing your CSV contacts failed";
export const FAILURES_FILE_NAME = "Import Failures.csv";

/** Failed rows attached at most, and characters: the file stays well under what a mail may carry. */
export const MAX_ATTACHED_FAILURES = 20_000;
export const MAX_ATTACHED_CHARACTERS = 5_000_000;
const FAILURES_PER_READ = 2_000;

/**
 * A cell a spreadsheet would run as a formula (=, +, -, @, or a tab or carriage return before one) is written
 * with a leading apostrophe, which spreadsheets show as text.
 */
export function neutralised(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

interface Closing {
  id: string;
  email: string | null;
  rows_imported: number;
  rows_failed: number;
  file_header_row: string;
  error: string | null;
}

/** The failed rows as CSV: "Error Message", then the file's headers; a row per failure, in the file's order. */
export async function failuresCsv(db: Database, importId: string, headers: string[]): Promise<{ text: string; rows: number }> {
  const lines = [stringify([["Error Message", ...headers].map(neutralised)])];
  let after = 0;
  let rows = 0;
  let characters = lines[0].length;
  while (rows < MAX_ATTACHED_FAILURES) {
    const [page] = await rowsOf(db, [
      sql`SELECT row_number, message, cells FROM import_row_failures WHERE import_id = ${importId} AND row_number > ${after}
        ORDER BY row_number LIMIT ${Math.min(FAILURES_PER_READ, MAX_ATTACHED_FAILURES - rows)}`,
    ]);
    for (const failure of page) {
      const line = stringify([[String(failure.message), ...(JSON.parse(String(failure.cells)) as string[])].map(neutralised)]);
      if (characters + line.length > MAX_ATTACHED_CHARACTERS) return { text: lines.join(""), rows };
      lines.push(line);
      characters += line.length;
      rows++;
    }
    if (page.length === 0) break;
    after = Number(page[page.length - 1].row_number);
  }
  return { text: lines.join(""), rows };
}

function body(closing: Closing, attached: number): string {
  const lines = ["Hello,", ""];
  if (closing.rows_failed === 0 && !closing.error) {
    lines.push("We have finished importing your CSV contacts.", `${closing.rows_imported} contacts imported successfully.`);
  } else {
    lines.push("We encountered errors while trying to import your CSV contacts.", `${closing.rows_imported} contacts imported successfully.`);
    if (closing.rows_failed > 0) lines.push(`${closing.rows_failed} contacts failed to import.`);
    if (closing.error) lines.push("", closing.error);
    if (attached > 0) {
      lines.push(
        "",
        "The attached CSV file holds the rows that failed to import; its first column says what was wrong with each. " +
          "Fix them there and import that file: the contacts imported successfully need not be imported again.",
      );
      if (attached < closing.rows_failed) lines.push(`(The file holds the first ${attached} of them.)`);
    }
  }
  lines.push("", "Thanks!", "");
  return lines.join("\n");
}

/** Sends the closing e-mail unless some run already took it. Answers whether this call sent it. */
export async function sendClosingMail(env: Bindings, db: Database, importId: string, now: string): Promise<boolean> {
  const [taken] = await rowsOf(db, [
    sql`UPDATE imports SET mail_attempted_at = ${now} WHERE id = ${importId} AND import_completed_at IS NOT NULL AND mail_attempted_at IS NULL
      RETURNING id, (SELECT email FROM users WHERE users.id = imports.user_id) AS email, rows_imported, rows_failed, file_header_row, error`,
  ]);
  const closing = taken[0] as unknown as Closing | undefined;
  if (!closing) return false;
  if (!closing.email) return false;
  const failed = closing.rows_failed > 0 || closing.error !== null;
  const attachment = closing.rows_failed > 0 ? await failuresCsv(db, importId, JSON.parse(closing.file_header_row) as string[]) : undefined;
  try {
    const result = await env.EMAIL.send({
      from: { name: "Imports", email: env.NOTIFICATIONS_FROM || DEFAULT_SENDER },
      to: closing.email,
      subject: failed ? FAILURE_SUBJECT : SUCCESS_SUBJECT,
      text: body(closing, attachment?.rows ?? 0),
      // A string would be taken as Base64: the text goes as its bytes.
      attachments: attachment ? [{ content: new TextEncoder().encode(attachment.text).buffer as ArrayBuffer, filename: FAILURES_FILE_NAME, type: "text/csv", disposition: "attachment" }] : undefined,
      headers: { "X-Import-Id": importId },
    });
    await db.$client.prepare("UPDATE imports SET mail_sent_at = ? WHERE id = ?").bind(now, importId).run();
    console.log(JSON.stringify({ level: "info", message: "import e-mail sent", import_id: importId, message_id: result?.messageId ?? null }));
    return true;
  } catch (error) {
    // Given back, to be tried again by the run's next delivery.
    await db.$client.prepare("UPDATE imports SET mail_attempted_at = NULL WHERE id = ?").bind(importId).run();
    throw error;
  }
}
