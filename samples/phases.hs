-- phases.hs: one program, two inputs, for `heapscope diff` sample data.
--
--   phases N lazy     the "before" run: the input list read whole and kept
--                     alive, then a word-frequency table whose counts are
--                     chains of thunks;
--   phases N strict   the "after" run: the input streamed, strict counts,
--                     so memory goes down and some bands go away.
-- Each phase is bracketed by user markers ("load", "count", "report",
-- "done") so a diff can compare the same phase of both runs (--between).
-- Base only; compile with: ghc -O0 -prof -fprof-auto -rtsopts -eventlog phases.hs
module Main (main) where

import Data.List (foldl')
import Debug.Trace (traceMarkerIO)
import System.Environment (getArgs)
import System.IO (hFlush, stdout)

-- A small deterministic "input": N pseudo-random words.
wordsOf :: Int -> [String]
wordsOf n = [ mkWord (i * 7919 `mod` 1009) | i <- [1 .. n] ]

mkWord :: Int -> String
mkWord k = "w" ++ show (k `mod` 97)

-- An association list keyed by word; small keys keep it base-only.
type Table = [(String, Int)]

bumpLazy :: Table -> String -> Table
bumpLazy [] w = [(w, 1)]
bumpLazy ((k, c) : rest) w
  | k == w = (k, c + 1) : rest
  | otherwise = (k, c) : bumpLazy rest w

bumpStrict :: Table -> String -> Table
bumpStrict [] w = [(w, 1)]
bumpStrict ((k, c) : rest) w
  | k == w = let c' = c + 1 in c' `seq` ((k, c') : rest)
  | otherwise = let r = bumpStrict rest w in r `seq` ((k, c) : r)

countLazy :: [String] -> Table
countLazy = foldl bumpLazy []

countStrict :: [String] -> Table
countStrict = foldl' bumpStrict []

-- The lazy run counts with lazy counts; the strict one with strict counts.
summaryLazy :: [String] -> (Table, Int)
summaryLazy ws = let t = countLazy ws in (t, sum (map snd t))

summaryStrict :: [String] -> (Table, Int)
summaryStrict ws = let t = countStrict ws in (t, sum (map snd t))

report :: (Table, Int) -> String
report (t, n) = show (length t) ++ " words, " ++ show n ++ " in all, top "
  ++ show (maximum (map snd t))

main :: IO ()
main = do
  args <- getArgs
  let (n, mode) = case args of
        [a, m] -> (read a, m)
        _ -> (30000, "lazy")
      lazy = mode /= "strict"
  traceMarkerIO "load"
  let ws = wordsOf n
  -- The lazy run reads the whole input first (and so keeps it alive until
  -- the count is done); the strict run streams it.
  if lazy
    then putStrLn ("words: " ++ show (length ws))
    else putStrLn ("first word: " ++ head ws)
  hFlush stdout
  traceMarkerIO "count"
  let r = if lazy then summaryLazy ws else summaryStrict ws
  snd r `seq` traceMarkerIO "report"
  putStrLn (report r)
  traceMarkerIO "done"
