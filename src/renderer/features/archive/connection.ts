/**
 * A connection string typed with its password in it (`postgresql://you:secret@host/db`): the password is
 * taken out, so it goes to main as the password (kept by the OS key store there) and the field, the page
 * and the project list show the address only.
 */
export function splitPassword(connection: string): { connection: string; password: string | null } {
  const trimmed = connection.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { connection: trimmed, password: null };
  }
  if (url.password === '') return { connection: trimmed, password: null };
  let password: string;
  try {
    password = decodeURIComponent(url.password);
  } catch {
    password = url.password;
  }
  url.password = '';
  return { connection: url.toString(), password };
}
