/**
 * The JSON text of a value, made once per object: an update writes a kind's index files again
 * from every record's query facts, and the facts of the records it did not make again are the
 * same objects as the last update's (kept-facts.ts), whose text is then known. Facts are never
 * changed once made, so an object's text stays its text.
 */
const texts = new WeakMap<object, string>();

export function jsonText(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  let text = texts.get(value);
  if (text === undefined) texts.set(value, (text = JSON.stringify(value)));
  return text;
}
