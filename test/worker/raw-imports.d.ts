// `import text from "./file.md?raw"`: Vite (and so the workerd test pool) inlines the file as a string.
declare module "*?raw" {
  const text: string;
  export default text;
}
