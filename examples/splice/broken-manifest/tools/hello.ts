export default async () => ({});
