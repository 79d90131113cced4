import type { RunnableConfig } from "@langchain/core/runnables";
import type { Checkpoint, CheckpointMetadata, PendingWrite } from "@langchain/langgraph-checkpoint";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { answersFirst } from "../../domain/turns.js";

/**
 * LangGraph's SQLite checkpointer, giving the event loop a turn before each write and letting the
 * requests being answered finish first. better-sqlite3 answers synchronously, so without it a
 * review's steps would run back to back in one task (each step's checkpoint serialised and
 * written in between), holding webhook and Slack answers for tens of milliseconds on a large PR.
 * PostgreSQL's checkpointer waits on the network already.
 */
export class TurnTakingSqliteSaver extends SqliteSaver {
  override async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
  ): Promise<RunnableConfig> {
    await answersFirst();
    return super.put(config, checkpoint, metadata);
  }

  override async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void> {
    await answersFirst();
    return super.putWrites(config, writes, taskId);
  }
}
