/** Fixture files read as text (vite's `?raw`). */
declare module "*?raw" {
  const text: string;
  export default text;
}
