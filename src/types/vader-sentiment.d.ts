/** Types for the valence lexicon inside vader-sentiment, which ships no types. */
declare module 'vader-sentiment/src/vader_lexicon.js' {
  export const lexicon: Record<string, number>;
}
