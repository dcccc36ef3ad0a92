-- manycc.hs: a small interpreter with many functions, written for
-- heapscope's sample data. Compiled with -fprof-auto, every top-level
-- function is a cost centre (well over 30 of them), and the pipeline
-- main -> runAll -> interpret -> evalExpr -> applyPrim -> ... gives deep
-- cost-centre stacks in the -hc profile.
--
-- It generates the source text of a toy language program, tokenizes it,
-- parses it, simplifies it, type-checks it, evaluates it, and pretty-prints
-- it again; the token list and the syntax tree are kept alive to the end so
-- that several bands stay visible. Base only.
module Main (main) where

import Data.Char (isAlpha, isDigit, isSpace)
import Data.List (foldl', intercalate)

-- Syntax -------------------------------------------------------------------

data Token = TNum Int | TIdent String | TSym String
  deriving (Eq, Show)

data Expr
  = Num Int
  | Var String
  | BinOp String Expr Expr
  | If Expr Expr Expr
  | Let String Expr Expr
  | Call String [Expr]
  deriving (Show)

data Def = Def String [String] Expr
  deriving (Show)

data Value = IntV Int | BoolV Bool
  deriving (Show)

data Type = TInt | TBool | TErr String
  deriving (Eq, Show)

-- Program generation --------------------------------------------------------

genProgram :: Int -> String
genProgram n = unlines (map genDef [1 .. n] ++ [genMain n])

genDef :: Int -> String
genDef i =
  "def f" ++ show i ++ " x y = " ++ genBody i 4

genBody :: Int -> Int -> String
genBody i 0 = genAtom i
genBody i d = case i `mod` 4 of
  0 -> "if x < " ++ show (i * 3) ++ " then " ++ genBody (i + 1) (d - 1) ++ " else " ++ genBody (i + 2) (d - 1) ++ " fi"
  1 -> "let t" ++ show d ++ " = " ++ genBody (i + 3) (d - 1) ++ " in t" ++ show d ++ " + y"
  2 -> "(" ++ genBody (i + 1) (d - 1) ++ " * " ++ genAtom i ++ ")"
  _ -> genBody (i + 1) (d - 1) ++ " - " ++ genAtom (i + 5)

genAtom :: Int -> String
genAtom i = case i `mod` 3 of
  0 -> show (i `mod` 97)
  1 -> "x"
  _ -> "y"

genMain :: Int -> String
genMain n = "def main x y = " ++ intercalate " + " [genCall i | i <- [1, 3 .. n]]

genCall :: Int -> String
genCall i = "f" ++ show i ++ "(x, " ++ show i ++ ")"

-- Lexer ---------------------------------------------------------------------

tokenize :: String -> [Token]
tokenize [] = []
tokenize s@(c : cs)
  | isSpace c = tokenize cs
  | isDigit c = lexNumber s
  | isAlpha c = lexIdent s
  | otherwise = lexSymbol s

lexNumber :: String -> [Token]
lexNumber s = let (ds, rest) = span isDigit s in TNum (read ds) : tokenize rest

lexIdent :: String -> [Token]
lexIdent s = let (w, rest) = span isIdentChar s in TIdent w : tokenize rest

isIdentChar :: Char -> Bool
isIdentChar c = isAlpha c || isDigit c || c == '_'

lexSymbol :: String -> [Token]
lexSymbol (c : cs) = TSym [c] : tokenize cs
lexSymbol [] = []

-- Parser (recursive descent) ------------------------------------------------

type P a = [Token] -> Either String (a, [Token])

parseProgram :: [Token] -> Either String [Def]
parseProgram [] = Right []
parseProgram ts = do
  (d, rest) <- parseDef ts
  ds <- parseProgram rest
  return (d : ds)

parseDef :: P Def
parseDef (TIdent "def" : TIdent name : rest) =
  let (params, rest') = parseParams rest
   in case rest' of
        TSym "=" : body -> do
          (e, rest'') <- parseExpr body
          return (Def name params e, rest'')
        _ -> Left ("expected = in " ++ name)
parseDef ts = Left ("expected def at " ++ show (take 3 ts))

parseParams :: [Token] -> ([String], [Token])
parseParams (TIdent p : rest) = let (ps, r) = parseParams rest in (p : ps, r)
parseParams ts = ([], ts)

parseExpr :: P Expr
parseExpr ts = parseCompare ts

parseCompare :: P Expr
parseCompare ts = do
  (l, rest) <- parseSum ts
  case rest of
    TSym "<" : rest' -> do
      (r, rest'') <- parseSum rest'
      return (BinOp "<" l r, rest'')
    _ -> return (l, rest)

parseSum :: P Expr
parseSum ts = do
  (l, rest) <- parseProduct ts
  parseSumTail l rest

parseSumTail :: Expr -> P Expr
parseSumTail l (TSym op : rest)
  | op == "+" || op == "-" = do
      (r, rest') <- parseProduct rest
      parseSumTail (BinOp op l r) rest'
parseSumTail l ts = return (l, ts)

parseProduct :: P Expr
parseProduct ts = do
  (l, rest) <- parseAtom ts
  parseProductTail l rest

parseProductTail :: Expr -> P Expr
parseProductTail l (TSym "*" : rest) = do
  (r, rest') <- parseAtom rest
  parseProductTail (BinOp "*" l r) rest'
parseProductTail l ts = return (l, ts)

parseAtom :: P Expr
parseAtom (TNum n : rest) = return (Num n, rest)
parseAtom (TIdent "if" : rest) = parseIf rest
parseAtom (TIdent "let" : rest) = parseLet rest
parseAtom (TIdent f : TSym "(" : rest) = parseCall f rest
parseAtom (TIdent v : rest) = return (Var v, rest)
parseAtom (TSym "(" : rest) = do
  (e, rest') <- parseExpr rest
  expectSym ")" rest' >>= \r -> return (e, r)
parseAtom ts = Left ("unexpected " ++ show (take 3 ts))

parseIf :: P Expr
parseIf ts = do
  (c, r1) <- parseExpr ts
  r2 <- expectKeyword "then" r1
  (t, r3) <- parseExpr r2
  r4 <- expectKeyword "else" r3
  (e, r5) <- parseExpr r4
  r6 <- expectKeyword "fi" r5
  return (If c t e, r6)

parseLet :: P Expr
parseLet (TIdent v : TSym "=" : ts) = do
  (b, r1) <- parseExpr ts
  r2 <- expectKeyword "in" r1
  (e, r3) <- parseExpr r2
  return (Let v b e, r3)
parseLet ts = Left ("bad let at " ++ show (take 3 ts))

parseCall :: String -> P Expr
parseCall f ts = do
  (args, rest) <- parseArgs ts
  return (Call f args, rest)

parseArgs :: P [Expr]
parseArgs (TSym ")" : rest) = return ([], rest)
parseArgs ts = do
  (e, rest) <- parseExpr ts
  case rest of
    TSym "," : rest' -> do
      (es, rest'') <- parseArgs rest'
      return (e : es, rest'')
    TSym ")" : rest' -> return ([e], rest')
    _ -> Left "expected , or )"

expectSym :: String -> [Token] -> Either String [Token]
expectSym s (TSym s' : rest) | s == s' = Right rest
expectSym s ts = Left ("expected " ++ s ++ " at " ++ show (take 3 ts))

expectKeyword :: String -> [Token] -> Either String [Token]
expectKeyword k (TIdent k' : rest) | k == k' = Right rest
expectKeyword k ts = Left ("expected " ++ k ++ " at " ++ show (take 3 ts))

-- Simplifier ----------------------------------------------------------------

simplifyDef :: Def -> Def
simplifyDef (Def n ps e) = Def n ps (simplify e)

simplify :: Expr -> Expr
simplify (BinOp op l r) = foldConst op (simplify l) (simplify r)
simplify (If c t e) = simplifyIf (simplify c) (simplify t) (simplify e)
simplify (Let v b e) = Let v (simplify b) (simplify e)
simplify (Call f as) = Call f (map simplify as)
simplify e = e

foldConst :: String -> Expr -> Expr -> Expr
foldConst "+" (Num a) (Num b) = Num (a + b)
foldConst "-" (Num a) (Num b) = Num (a - b)
foldConst "*" (Num a) (Num b) = Num (a * b)
foldConst "*" (Num 1) e = e
foldConst op l r = BinOp op l r

simplifyIf :: Expr -> Expr -> Expr -> Expr
simplifyIf (BinOp "<" (Num a) (Num b)) t e = if a < b then t else e
simplifyIf c t e = If c t e

-- Environments: an association list wrapped in a binary tree ----------------

data Env a = EEmpty | ENode (Env a) String a (Env a)

envInsert :: String -> a -> Env a -> Env a
envInsert k v EEmpty = ENode EEmpty k v EEmpty
envInsert k v (ENode l k' v' r)
  | k < k' = ENode (envInsert k v l) k' v' r
  | k > k' = ENode l k' v' (envInsert k v r)
  | otherwise = ENode l k v r

envLookup :: String -> Env a -> Maybe a
envLookup _ EEmpty = Nothing
envLookup k (ENode l k' v r)
  | k < k' = envLookup k l
  | k > k' = envLookup k r
  | otherwise = Just v

envFromList :: [(String, a)] -> Env a
envFromList = foldl' (\e (k, v) -> envInsert k v e) EEmpty

-- Type checker --------------------------------------------------------------

checkDef :: Env Def -> Def -> Type
checkDef defs (Def _ ps e) = typeOf defs (envFromList [(p, TInt) | p <- ps]) e

typeOf :: Env Def -> Env Type -> Expr -> Type
typeOf _ _ (Num _) = TInt
typeOf _ vars (Var v) = maybe (TErr ("unbound " ++ v)) id (envLookup v vars)
typeOf defs vars (BinOp op l r) = binOpType op (typeOf defs vars l) (typeOf defs vars r)
typeOf defs vars (If c t e) = ifType (typeOf defs vars c) (typeOf defs vars t) (typeOf defs vars e)
typeOf defs vars (Let v b e) = typeOf defs (envInsert v (typeOf defs vars b) vars) e
typeOf defs vars (Call f as) = callType defs f (map (typeOf defs vars) as)

binOpType :: String -> Type -> Type -> Type
binOpType "<" TInt TInt = TBool
binOpType _ TInt TInt = TInt
binOpType op a b = TErr ("bad operands for " ++ op ++ ": " ++ show (a, b))

ifType :: Type -> Type -> Type -> Type
ifType TBool t e | t == e = t
ifType c t e = TErr ("bad if: " ++ show (c, t, e))

callType :: Env Def -> String -> [Type] -> Type
callType defs f ts = case envLookup f defs of
  Nothing -> TErr ("unknown function " ++ f)
  Just (Def _ ps _)
    | length ps /= length ts -> TErr ("arity of " ++ f)
    | all (== TInt) ts -> TInt
    | otherwise -> TErr ("argument types of " ++ f)

-- Evaluator -----------------------------------------------------------------

evalDef :: Env Def -> Def -> [Int] -> Value
evalDef defs (Def _ ps e) args = evalExpr defs (bindArgs ps args) e

bindArgs :: [String] -> [Int] -> Env Value
bindArgs ps args = envFromList (zip ps (map IntV args))

evalExpr :: Env Def -> Env Value -> Expr -> Value
evalExpr _ _ (Num n) = IntV n
evalExpr _ env (Var v) = maybe (error ("unbound " ++ v)) id (envLookup v env)
evalExpr defs env (BinOp op l r) = applyPrim op (evalExpr defs env l) (evalExpr defs env r)
evalExpr defs env (If c t e) = evalIf defs env c t e
evalExpr defs env (Let v b e) = evalExpr defs (envInsert v (evalExpr defs env b) env) e
evalExpr defs env (Call f as) = evalCall defs f (map (asInt . evalExpr defs env) as)

evalIf :: Env Def -> Env Value -> Expr -> Expr -> Expr -> Value
evalIf defs env c t e = case evalExpr defs env c of
  BoolV True -> evalExpr defs env t
  _ -> evalExpr defs env e

evalCall :: Env Def -> String -> [Int] -> Value
evalCall defs f args = case envLookup f defs of
  Just d -> evalDef defs d args
  Nothing -> error ("unknown function " ++ f)

applyPrim :: String -> Value -> Value -> Value
applyPrim "+" a b = IntV (asInt a + asInt b)
applyPrim "-" a b = IntV (asInt a - asInt b)
applyPrim "*" a b = IntV (wrap (asInt a * asInt b))
applyPrim "<" a b = BoolV (asInt a < asInt b)
applyPrim op _ _ = error ("unknown operator " ++ op)

wrap :: Int -> Int
wrap n = n `mod` 1000003

asInt :: Value -> Int
asInt (IntV n) = n
asInt (BoolV b) = if b then 1 else 0

-- Pretty printer ------------------------------------------------------------

prettyDef :: Def -> String
prettyDef (Def n ps e) = "def " ++ unwords (n : ps) ++ " = " ++ prettyExpr e

prettyExpr :: Expr -> String
prettyExpr (Num n) = show n
prettyExpr (Var v) = v
prettyExpr (BinOp op l r) = "(" ++ prettyExpr l ++ " " ++ op ++ " " ++ prettyExpr r ++ ")"
prettyExpr (If c t e) = "if " ++ prettyExpr c ++ " then " ++ prettyExpr t ++ " else " ++ prettyExpr e ++ " fi"
prettyExpr (Let v b e) = "let " ++ v ++ " = " ++ prettyExpr b ++ " in " ++ prettyExpr e
prettyExpr (Call f as) = f ++ "(" ++ intercalate ", " (map prettyExpr as) ++ ")"

-- Statistics ----------------------------------------------------------------

exprSize :: Expr -> Int
exprSize (BinOp _ l r) = 1 + exprSize l + exprSize r
exprSize (If c t e) = 1 + exprSize c + exprSize t + exprSize e
exprSize (Let _ b e) = 1 + exprSize b + exprSize e
exprSize (Call _ as) = 1 + sum (map exprSize as)
exprSize _ = 1

countTokens :: [Token] -> (Int, Int, Int)
countTokens = foldl' step (0, 0, 0)
  where
    step (a, b, c) (TNum _) = (a + 1, b, c)
    step (a, b, c) (TIdent _) = (a, b + 1, c)
    step (a, b, c) (TSym _) = (a, b, c + 1)

-- Driver --------------------------------------------------------------------

interpret :: Int -> [Def] -> Int -> Int
interpret rounds defs seed = sum [asInt (runMain env r) | r <- [seed .. seed + rounds - 1]]
  where
    env = envFromList [(n, d) | d@(Def n _ _) <- defs]

runMain :: Env Def -> Int -> Value
runMain env x = evalCall env "main" [x, x * 2]

typeCheckAll :: [Def] -> [Type]
typeCheckAll defs = map (checkDef env) defs
  where
    env = envFromList [(n, d) | d@(Def n _ _) <- defs]

runAll :: Int -> Int -> IO ()
runAll size rounds = do
  let src = genProgram size
      toks = tokenize src
  putStrLn ("source: " ++ show (length src) ++ " chars, tokens " ++ show (countTokens toks))
  defs <- case parseProgram toks of
    Left err -> fail err
    Right ds -> return ds
  let simple = map simplifyDef defs
      types = typeCheckAll simple
      bad = [t | t@(TErr _) <- types]
  putStrLn ("defs: " ++ show (length defs) ++ ", size " ++ show (sum [exprSize e | Def _ _ e <- defs])
            ++ " -> " ++ show (sum [exprSize e | Def _ _ e <- simple]) ++ ", type errors " ++ show (length bad))
  putStrLn ("result: " ++ show (interpret rounds simple 1))
  let pretty = map prettyDef simple
  putStrLn ("pretty: " ++ show (sum (map length pretty)) ++ " chars; first: " ++ take 60 (head pretty))
  -- keep the tokens and the original tree alive until here
  putStrLn ("tokens again: " ++ show (length toks) ++ ", defs again: " ++ show (length defs))

main :: IO ()
main = runAll 800 40
