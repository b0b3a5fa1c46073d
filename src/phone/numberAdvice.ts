// The advice of a number's refusal (src/input/inputError.ts's `Advice`, a value to set): an expression written from
// the field's own expression, as the builder mapped it, so that following it reads the same item.

/**
 * The expression inside a field written as one n8n expression (`={{ $json.phone }}` gives
 * `$json.phone`); undefined for a fixed value or text around an expression, which no wrapping
 * can keep as it is.
 */
export function expressionInside(parameter: unknown): string | undefined {
	if (typeof parameter !== 'string') return undefined;
	const inside = /^=\s*\{\{([\s\S]*)\}\}\s*$/.exec(parameter)?.[1].trim();
	return inside && !/\{\{|\}\}/.test(inside) ? inside : undefined;
}

/** The field set to an expression of its own: `wrap` gets the field's expression in brackets. */
export function adviceFromField(
	field: string,
	parameter: unknown,
	wrap: (expression: string) => string,
): { field: string; set: string } | undefined {
	const expression = expressionInside(parameter);
	return expression === undefined ? undefined : { field, set: `{{ ${wrap(`(${expression})`)} }}` };
}
