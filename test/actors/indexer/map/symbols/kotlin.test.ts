import test from 'ava';
import { definitionsOf } from './definitions-of.js';

test('a Kotlin file lists classes, objects, functions and top-level properties; private ones are not exported', (t) => {
  const source = `package com.example.sync

import kotlinx.coroutines.flow.Flow

const val SYNC_INTERVAL = 30_000L
private val log = Logger("sync")

typealias Listener = (SyncEvent) -> Unit

sealed class SyncEvent {
    data class Started(val at: Long) : SyncEvent()
    object Finished : SyncEvent()
}

interface SyncSource {
    suspend fun fetch(): List<Item>
}

class SyncEngine(private val source: SyncSource) {
    companion object {
        fun create(): SyncEngine = SyncEngine(RemoteSource())
    }

    suspend fun run(): Int {
        val items = source.fetch()
        fun local() = items.size
        return local()
    }

    private fun retry() {}

    internal fun stats(): String = ""
}

enum class Mode { FULL, DELTA }

fun String.toSyncKey(): String = lowercase()

fun <T> Flow<T>.throttled(): Flow<T> = this

private fun helper() {}

fun interface Callback {
    fun invoke()
}
`;
  t.deepEqual(definitionsOf('app/src/main/kotlin/SyncEngine.kt', source), [
    '+ SYNC_INTERVAL constant',
    '- log constant',
    '+ Listener type',
    '+ SyncEvent class',
    '+ Started class',
    '+ Finished class',
    '+ SyncSource interface',
    '+ fetch function',
    '+ SyncEngine class',
    '+ run function',
    '- retry function',
    '+ stats function',
    '+ Mode class',
    '+ toSyncKey function',
    '+ throttled function',
    '- helper function',
    '+ Callback interface',
    '+ invoke function',
  ]);
});
