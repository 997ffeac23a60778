// Example only: never run by vouch.
type Input = { url: string };

export default async function (input: Input, ctx: { capability: (n: string, a: unknown) => Promise<unknown> }) {
  const page = await ctx.capability("web.extract", { url: input.url });
  return { appended: JSON.stringify(page).length > 0 ? 1 : 0 };
}
