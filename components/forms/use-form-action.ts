"use client";

import { startTransition, useActionState, useEffect, useRef, type FormEvent } from "react";
import { EMPTY_FORM_STATE, type ActionResult, type FormState } from "@/lib/http/action-result";

/**
 * Runs a server action from a form's submit event instead of its `action` prop, so React does not
 * reset the form: what the user typed (a connection URL, a password) stays in the browser and never
 * needs to travel back in the action's answer. With `resetOnSuccess` the form clears after success.
 */
export function useFormAction<T = undefined>(
  action: (previous: FormState<T>, formData: FormData) => Promise<ActionResult<T> | FormState<T>>,
  options: { resetOnSuccess?: boolean } = {},
) {
  const [state, dispatch, pending] = useActionState<FormState<T>, FormData>(action, EMPTY_FORM_STATE);
  const formRef = useRef<HTMLFormElement>(null);
  const { resetOnSuccess } = options;
  useEffect(() => {
    if (resetOnSuccess && state.ok) formRef.current?.reset();
  }, [state, resetOnSuccess]);
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formData = new FormData(event.currentTarget);
    startTransition(() => dispatch(formData));
  }
  return { state, pending, formRef, onSubmit };
}
