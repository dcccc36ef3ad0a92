-- EventCounts.hs: per-tag event counts of a GHC eventlog, made with the
-- reference Haskell parser (the ghc-events library), as an independent oracle
-- for heapscope's own C parser.
--
-- Build:  ghc -O -package ghc-events EventCounts.hs -o event-counts
-- Use:    event-counts FILE.eventlog          (prints "TAG COUNT" lines)
--
-- Output: one line per event type id present in the data section, "TAG COUNT",
-- sorted by tag numerically. Every event the library returns is counted.
-- Exit status: 0 ok, 1 ghc-events could not parse the file, 2 an event whose
-- constructor has no tag in the table below, 3 a counted tag that the
-- file's header does not declare, 64 bad usage.
--
-- How ghc-events (checked with 0.17.0.3, Debian's libghc-ghc-events-dev)
-- treats block markers (tag 18, BLOCK_MARKER): the library decodes the data
-- section into one flat list of events in file order (not sorted by time).
-- A block marker is consumed by the decoder and is NOT returned as an event:
-- no `EventBlock` ever appears in the list (the constructor still exists in
-- EventInfo). The decoder only uses the marker to set evCap on the events
-- inside the block: Just cap for a capability's block, Nothing for the
-- global buffer's block (cap 0xffff). So tag 18 never appears in this tool's
-- output, although every sample eventlog has block markers (checked against
-- a raw byte-level count: all other tags agree exactly). A consumer comparing
-- its own counts with these must leave tag 18 out. (Older ghc-events
-- releases represented blocks differently; this tool was written for and
-- checked with 0.17.) The data-end marker (0xffff) is not an event and is not counted.
--
-- Mapping an event to its tag: ghc-events keeps no tag number in a decoded
-- Event, and exports no constructor -> tag function, so `tagOf` below is a
-- table written from GHC's rts/include/rts/EventLogFormat.h for the
-- constructors of ghc-events 0.17's EventInfo (Eden and Mercury events are
-- left out: GHC does not write them). `UnknownEvent` carries its
-- tag. A constructor missing from the table is an error (exit 2) rather than
-- a guess. As a sanity check, every tag counted must also be declared in the
-- file's event-type table (the header); otherwise the tool exits with 3.
module Main (main) where

import qualified Data.Map.Strict as M
import Data.List (foldl')
import GHC.RTS.Events
import System.Environment (getArgs)
import System.Exit (exitWith, ExitCode (..))
import System.IO (hPutStrLn, stderr)

tagOf :: EventInfo -> Either String Int
tagOf ev = case ev of
  UnknownEvent {ref = r} -> Right (fromIntegral r)
  CreateThread {} -> Right 0
  RunThread {} -> Right 1
  StopThread {} -> Right 2
  ThreadRunnable {} -> Right 3
  MigrateThread {} -> Right 4
  Shutdown -> Right 7                 -- obsolete EVENT_SHUTDOWN
  WakeupThread {} -> Right 8
  StartGC -> Right 9
  EndGC -> Right 10
  RequestSeqGC -> Right 11
  RequestParGC -> Right 12
  CreateSparkThread {} -> Right 15
  Message {} -> Right 16              -- EVENT_LOG_MSG
  Startup {} -> Right 17              -- obsolete EVENT_STARTUP
  EventBlock {} -> Right 18
  UserMessage {} -> Right 19
  GCIdle -> Right 20
  GCWork -> Right 21
  GCDone -> Right 22
  CapsetCreate {} -> Right 25
  CapsetDelete {} -> Right 26
  CapsetAssignCap {} -> Right 27
  CapsetRemoveCap {} -> Right 28
  RtsIdentifier {} -> Right 29
  ProgramArgs {} -> Right 30
  ProgramEnv {} -> Right 31
  OsProcessPid {} -> Right 32
  OsProcessParentPid {} -> Right 33
  SparkCounters {} -> Right 34
  SparkCreate -> Right 35
  SparkDud -> Right 36
  SparkOverflow -> Right 37
  SparkRun -> Right 38
  SparkSteal {} -> Right 39
  SparkFizzle -> Right 40
  SparkGC -> Right 41
  InternString {} -> Right 42
  WallClockTime {} -> Right 43
  ThreadLabel {} -> Right 44
  CapCreate {} -> Right 45
  CapDelete {} -> Right 46
  CapDisable {} -> Right 47
  CapEnable {} -> Right 48
  HeapAllocated {} -> Right 49
  HeapSize {} -> Right 50
  HeapLive {} -> Right 51
  HeapInfoGHC {} -> Right 52
  GCStatsGHC {} -> Right 53
  GlobalSyncGC -> Right 54
  TaskCreate {} -> Right 55
  TaskMigrate {} -> Right 56
  TaskDelete {} -> Right 57
  UserMarker {} -> Right 58
  MemReturn {} -> Right 90
  BlocksSize {} -> Right 91
  PerfName {} -> Right 140
  PerfCounter {} -> Right 141
  PerfTracepoint {} -> Right 142
  HeapProfBegin {} -> Right 160
  HeapProfCostCentre {} -> Right 161
  HeapProfSampleBegin {} -> Right 162
  HeapProfSampleCostCentre {} -> Right 163
  HeapProfSampleString {} -> Right 164
  HeapProfSampleEnd {} -> Right 165
  HeapBioProfSampleBegin {} -> Right 166
  ProfSampleCostCentre {} -> Right 167
  ProfBegin {} -> Right 168
  InfoTableProv {} -> Right 169
  UserBinaryMessage {} -> Right 181
  ConcMarkBegin -> Right 200
  ConcMarkEnd {} -> Right 201
  ConcSyncBegin -> Right 202
  ConcSyncEnd -> Right 203
  ConcSweepBegin -> Right 204
  ConcSweepEnd -> Right 205
  ConcUpdRemSetFlush {} -> Right 206
  NonmovingHeapCensus {} -> Right 207
  TickyCounterDef {} -> Right 210
  TickyCounterSample {} -> Right 211
  TickyBeginSample {} -> Right 212
  other -> Left (takeWhile (/= ' ') (show other))

main :: IO ()
main = do
  args <- getArgs
  path <- case args of
    [p] -> return p
    _ -> do
      hPutStrLn stderr "usage: event-counts FILE.eventlog"
      exitWith (ExitFailure 64)
  r <- readEventLogFromFile path
  EventLog hdr (Data evs) <- case r of
    Left err -> do
      hPutStrLn stderr (path ++ ": ghc-events: " ++ err)
      exitWith (ExitFailure 1)
    Right l -> return l
  let step acc e = case tagOf (evSpec e) of
        Right t -> M.insertWith (+) t (1 :: Int) <$> acc
        Left name -> Left name
  counts <- case foldl' step (Right M.empty) evs of
    Left name -> do
      hPutStrLn stderr (path ++ ": no tag known for constructor " ++ name)
      exitWith (ExitFailure 2)
    Right m -> return m
  let declared = M.fromList [(fromIntegral (num t), ()) | t <- eventTypes hdr]
      undeclared = [t | t <- M.keys counts, not (M.member t declared)]
  if null undeclared
    then mapM_ (\(t, n) -> putStrLn (show t ++ " " ++ show n)) (M.toAscList counts)
    else do
      hPutStrLn stderr (path ++ ": tags counted but not declared in the header: " ++ show undeclared)
      exitWith (ExitFailure 3)
