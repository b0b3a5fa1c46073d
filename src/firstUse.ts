/**
 * A value built on its first use and kept, instead of at module load. n8n loads every node of the
 * package at start-up, and most zod schemas are needed only once a node runs.
 */
export function onFirstUse<T>(build: () => T): () => T {
	let built: { value: T } | undefined;
	return () => {
		built ??= { value: build() };
		return built.value;
	};
}
