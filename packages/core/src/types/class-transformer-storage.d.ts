// class-transformer 0.5 ships no declaration beside `cjs/storage.js`; this is the store `@Type` writes to.
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
