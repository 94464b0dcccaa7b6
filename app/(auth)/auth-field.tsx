/** A labelled input with its validation message right under it. */
export function AuthField({ name, label, error, ...input }: { name: string; label: string; error?: string } & React.InputHTMLAttributes<HTMLInputElement>) {
  const id = `f-${name}`;
  return (
    <label htmlFor={id} className={error ? "field invalid" : "field"}>
      {label}
      <input id={id} name={name} aria-invalid={Boolean(error)} aria-describedby={error ? `${id}-error` : undefined} {...input} />
      {error && <small id={`${id}-error`} className="error field-error">{error}</small>}
    </label>
  );
}
