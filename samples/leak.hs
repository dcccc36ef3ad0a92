-- leak.hs: a deliberate space leak, written for heapscope's sample data.
--
-- Three classic leaks, one after the other, so the heap profile has a
-- visible shape (ramp up, plateau, drop) and several cost-centre stacks:
--   1. a lazy left fold whose accumulator is a growing chain of thunks;
--   2. a list that is kept alive between two traversals (mean = sum / length);
--   3. a CAF (primeTable) that allocates a large list once and is kept
--      alive until the end of the program because it is used again later.
-- Base only; compile with: ghc -O0 -prof -fprof-auto -rtsopts -eventlog leak.hs
module Main (main) where

import Data.Char (ord)
import System.IO (hFlush, stdout)

-- A CAF with real allocation: all primes below 60000 by trial division.
primeTable :: [Int]
primeTable = sieve [2 .. 60000]

sieve :: [Int] -> [Int]
sieve [] = []
sieve (p : xs)
  | p * p > 60000 = p : xs
  | otherwise = p : sieve [x | x <- xs, x `mod` p /= 0]

-- Leak 1: lazy accumulator (foldl with a tuple builds thunks).
data Stats = Stats Int Int Double

lazyStats :: [Int] -> Stats
lazyStats = foldl step (Stats 0 0 0)
  where
    step (Stats n s q) x = Stats (n + 1) (s + x) (q + fromIntegral x * 0.5)

readStats :: Stats -> String
readStats (Stats n s q) = show n ++ " " ++ show s ++ " " ++ show q

-- Leak 2: a list kept alive across two traversals.
records :: Int -> [(Int, String)]
records n = [(i, label i) | i <- [1 .. n]]

label :: Int -> String
label i = "rec-" ++ show i

mean :: [(Int, String)] -> Double
mean rs = fromIntegral (sum (map weight rs)) / fromIntegral (length rs)

weight :: (Int, String) -> Int
weight (i, s) = i + sum (map ord s)

-- Leak 3: reuse of the CAF after other work.
sumPrimes :: Int -> Int
sumPrimes k = sum (takeWhile (< k) primeTable)

countPrimes :: Int
countPrimes = length primeTable

main :: IO ()
main = do
  putStrLn ("primes: " ++ show countPrimes)
  hFlush stdout
  putStrLn ("stats: " ++ readStats (lazyStats [1 .. 150000]))
  putStrLn ("mean: " ++ show (mean (records 80000)))
  putStrLn ("sum of primes below 50000: " ++ show (sumPrimes 50000))
