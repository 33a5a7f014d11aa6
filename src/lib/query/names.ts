/** Query values may name fields in either spelling (docs/api.md, Lists): `created_at` means `createdAt`. */
export function toCamelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, ch: string) => ch.toUpperCase());
}
