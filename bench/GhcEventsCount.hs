{-# LANGUAGE BangPatterns, MagicHash #-}
-- | Reference event counter built on the ghc-events library.
--
-- Used by bench/run.sh as (a) a validator for bench/gen_eventlog.c output and
-- (b) the comparison point for "heapscope events --count".
--
-- Build:  ghc -O2 -package ghc-events -outputdir /tmp/gec -o /tmp/ghc-events-count bench/GhcEventsCount.hs
-- Usage:  ghc-events-count [--total] EVENTLOG
--
-- Default output: one line per event constructor, "COUNT NAME", sorted by
-- count (descending), then "total N".  The constructor names are those of
-- ghc-events' EventInfo type (EventBlock, RunThread, HeapProfSampleCostCentre,
-- ...), not the RTS tag names.  With --total only the "total N" line is
-- printed.  Exit status 1 if the file cannot be parsed completely.
--
-- This goes through GHC.RTS.Events.Incremental.readEventLog, which is what
-- GHC.RTS.Events.readEventLogFromFile is built on, because it also returns the
-- decoder's error (if any) after the last event instead of silently ending the
-- event list there.
module Main (main) where

import qualified Data.ByteString.Lazy as BL
import qualified Data.IntMap.Strict as IM
import Data.List (foldl', sortBy)
import Data.Ord (comparing, Down (..))
import GHC.Exts (Int (I#), dataToTag#)
import GHC.RTS.Events
import GHC.RTS.Events.Incremental (readEventLog)
import System.Environment (getArgs)
import System.Exit (exitFailure)
import System.IO (hPutStrLn, stderr)

-- Constructor index of the EventInfo (no need to render the payload).
conIndex :: EventInfo -> Int
conIndex !e = I# (dataToTag# e)

-- Constructor name, rendered once per constructor from a representative.
conName :: EventInfo -> String
conName = takeWhile (\c -> c /= ' ' && c /= '{') . show

data Acc = Acc !Int !(IM.IntMap (Int, EventInfo))

step :: Acc -> Event -> Acc
step (Acc n m) ev =
  let spec = evSpec ev
      !k = conIndex spec
  in Acc (n + 1) (IM.insertWith bump k (1, spec) m)
  where bump _ (c, s) = let !c' = c + 1 in (c', s)

main :: IO ()
main = do
  args <- getArgs
  (totalOnly, path) <- case args of
    ["--total", p] -> pure (True, p)
    [p]            -> pure (False, p)
    _ -> hPutStrLn stderr "usage: ghc-events-count [--total] EVENTLOG" >> exitFailure
  bytes <- BL.readFile path
  case readEventLog bytes of
    Left err -> hPutStrLn stderr ("ghc-events: header: " ++ err) >> exitFailure
    Right (EventLog _hdr (Data evs), merr) -> do
      let Acc n m = foldl' step (Acc 0 IM.empty) evs
      n `seq` pure ()
      if totalOnly then pure () else
        mapM_ (\(c, s) -> putStrLn (show c ++ " " ++ conName s))
              (sortBy (comparing (Down . fst)) (IM.elems m))
      putStrLn ("total " ++ show n)
      case merr of
        Nothing -> pure ()
        Just e  -> hPutStrLn stderr ("ghc-events: error after " ++ show n ++ " events: " ++ e) >> exitFailure
