/** The people access tests need: a list's user, a stranger with a list of their own, and a coach of the first list. */
import { addToList, createUser, createViewer } from "./factories";

export async function userStrangerAndCoach() {
  const owner = await createViewer();
  const stranger = await createViewer();
  const coach = await createUser();
  await addToList(owner.list.id, coach.id, "coach");
  return { owner, stranger, coach };
}
