/** A small seeded generator of numbers in [0, 1), so a failing sample of a seeded test can be drawn again. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}
