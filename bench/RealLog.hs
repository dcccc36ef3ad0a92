-- RealLog.hs: a real GHC program for bench/run.sh's real eventlog. Built
-- with -threaded -rtsopts -eventlog and run with +RTS -N2 -l -hT -A64k
-- (bench/run.sh), so that its log has what real logs have most of: small
-- GC, capability, heap-size and thread events, by the million, beside a
-- heap census by closure type.
-- Usage: RealLog ROUNDS
module Main (main) where

import Control.Concurrent
import Control.Exception (evaluate)
import Control.Monad (forM, forM_, replicateM_)
import qualified Data.Map.Strict as M
import System.Environment (getArgs)

data Tree = Leaf | Node Tree !Int Int Tree

insertT :: Int -> Int -> Tree -> Tree
insertT k v Leaf = Node Leaf k v Leaf
insertT k v t@(Node l k' v' r)
  | k < k' = Node (insertT k v l) k' v' r
  | k > k' = Node l k' v' (insertT k v r)
  | otherwise = t

sumT :: Tree -> Int
sumT Leaf = 0
sumT (Node l _ v r) = sumT l + v + sumT r

keys :: Int -> Int -> [Int]
keys seed n = take n (tail (iterate next seed))
  where next x = (x * 1103515245 + 12345) `mod` 2147483648

-- Many short threads on both capabilities: thread events, and with a small
-- nursery a collection every few microseconds of allocation.
worker :: Int -> MVar Int -> IO ()
worker seed out = do
  let t = foldr (\k -> insertT (k `mod` 100003) k) Leaf (keys seed 2000)
  m <- evaluate (M.fromList [(k `mod` 977, k) | k <- keys (seed + 1) 500])
  v <- evaluate (sumT t + M.size m)
  putMVar out v

main :: IO ()
main = do
  [n] <- map read <$> getArgs
  forM_ [1 .. n :: Int] $ \r -> do
    outs <- forM [1 .. 16] $ \i -> do
      mv <- newEmptyMVar
      _ <- forkOn (i `mod` 2) (worker (r * 131 + i) mv)
      return mv
    vs <- mapM takeMVar outs
    replicateM_ 4 yield
    _ <- evaluate (sum vs)
    return ()
  putStrLn "done"
