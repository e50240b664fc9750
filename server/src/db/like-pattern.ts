/**
 * A LIKE pattern matching text that contains `text`: its own wildcards (`%`, `_`) and backslashes
 * dropped, so a search box never turns into a pattern of the user's making.
 */
export function containing(text: string): string {
  return `%${text.replace(/[%_\\]/g, '')}%`;
}
