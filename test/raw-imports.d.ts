/** A file imported as its text (Vite's `?raw`): test fixtures such as test/imports/fixtures/product_template.csv. */
declare module '*?raw' {
  const text: string;
  export default text;
}
